// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The configuration fields GPT-2 and Marian need (core/SPEC.md §7.1): activation,
// generator_bias and masked_specials. Each written into the files' JSON only when it is not
// the default (older files read as before), read back, taken by --config where it has a form
// there, and each wrong value refused by name; the rules that tie them to the rest (no
// smoothing with masked specials, </s> never masked) checked by hand.
#include "skip.h"
#include "model/config.h"
#include "model/memory.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestConfig : public QObject {
    Q_OBJECT
private slots:
    void defaultsWriteNoKeys();
    void roundTrip();
    void spec();
    void refusals_data();
    void refusals();
    void rules();
};

// Our own models' JSON is as it was: none of the three keys.
void TestConfig::defaultsWriteNoKeys()
{
    const QJsonObject j = ModelConfig{}.toJson();
    for (const char* key : {"activation", "generator_bias", "masked_specials"})
        QVERIFY2(!j.contains(QLatin1String(key)), key);
    QString error;
    const std::optional<ModelConfig> back = ModelConfig::fromJson(j, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(activationName(back->activation), u"relu"_s);
    QVERIFY(back->generator_bias);
    QCOMPARE(int(back->masked_specials), 0);
}

void TestConfig::roundTrip()
{
    ModelConfig c;
    c.src_vocab = c.tgt_vocab = 100;
    c.activation = Activation::GeluTanh;
    c.generator_bias = false;
    c.label_smoothing = 0;
    c.masked_specials = 0b1011;
    QCOMPARE(c.validate(), QString());
    const QJsonObject j = c.toJson();
    QCOMPARE(j.value(u"activation"_s).toString(), u"gelu-tanh"_s);
    QCOMPARE(j.value(u"generator_bias"_s), QJsonValue(false));
    QCOMPARE(j.value(u"masked_specials"_s).toArray(), QJsonArray({u"<pad>"_s, u"<s>"_s, u"<unk>"_s}));
    QString error;
    std::optional<ModelConfig> back = ModelConfig::fromJson(j, &error);
    QVERIFY2(back, qPrintable(error));
    back->src_vocab = back->tgt_vocab = 100;  // not part of the JSON (§7.1)
    QVERIFY(*back == c);
    c.activation = Activation::Silu;
    QCOMPARE(ModelConfig::fromJson(c.toJson(), &error)->activation, Activation::Silu);
}

void TestConfig::spec()
{
    QString error;
    const std::optional<ModelConfig> c =
        ModelConfig::fromSpec(u"tiny,activation=silu,generator_bias=false"_s, &error, {});
    QVERIFY2(c, qPrintable(error));
    QCOMPARE(c->activation, Activation::Silu);
    QVERIFY(!c->generator_bias);
    QVERIFY2(c->spec().endsWith(u",activation=silu,generator_bias=false"_s), qPrintable(c->spec()));
    // The spec of a configuration gives the configuration back.
    const std::optional<ModelConfig> again = ModelConfig::fromSpec(c->spec(), &error, {});
    QVERIFY2(again, qPrintable(error));
    QVERIFY(*again == *c);
    // A parameter fewer without the generator's bias: V_tgt of them.
    ModelConfig a = *c, b = *c;
    a.src_vocab = a.tgt_vocab = b.src_vocab = b.tgt_vocab = 1000;
    b.generator_bias = true;
    QCOMPARE(parameterCount(b) - parameterCount(a), 1000.0);
}

void TestConfig::refusals_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("named");
    QTest::newRow("exact GELU is not computed") << u"activation"_s << QJsonValue(u"gelu"_s) << u"'activation'"_s;
    QTest::newRow("activation not a string") << u"activation"_s << QJsonValue(1) << u"'activation'"_s;
    QTest::newRow("generator_bias as text") << u"generator_bias"_s << QJsonValue(u"false"_s) << u"'generator_bias'"_s;
    QTest::newRow("an unknown special") << u"masked_specials"_s << QJsonValue(QJsonArray{u"<mask>"_s}) << u"'masked_specials'"_s;
    QTest::newRow("not a list") << u"masked_specials"_s << QJsonValue(u"<pad>"_s) << u"'masked_specials'"_s;
    QTest::newRow("an id, not a name") << u"masked_specials"_s << QJsonValue(QJsonArray{0}) << u"'masked_specials'"_s;
}

void TestConfig::refusals()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, named);
    QJsonObject j = ModelConfig{}.toJson();
    j.insert(key, value);
    QString error;
    QVERIFY(!ModelConfig::fromJson(j, &error));
    QVERIFY2(error.contains(named), qPrintable(error));
}

void TestConfig::rules()
{
    ModelConfig c;
    c.src_vocab = c.tgt_vocab = 100;
    c.masked_specials = 0b0001;  // <pad>
    QVERIFY2(c.validate().contains(u"label_smoothing must be 0"_s), qPrintable(c.validate()));
    c.label_smoothing = 0;
    QCOMPARE(c.validate(), QString());
    c.masked_specials = 0b0100;  // </s>
    QVERIFY2(c.validate().contains(u"</s>"_s), qPrintable(c.validate()));
}

AS_TEST_APPLESS_MAIN(TestConfig)
#include "test_config.moc"
