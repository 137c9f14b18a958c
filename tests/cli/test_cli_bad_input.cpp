// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The command line as a careless user drives it: unknown commands and options, missing or
// unreadable files, bad numbers. Each gives a message on stderr (usage help for usage errors)
// and a non-zero exit code: 2 for a usage error, 1 for a file that cannot be used. And the
// translate command answers every kind of typed line with exactly one output line. Each bad
// option is named with its value (NaN and infinity too), a list with an empty entry is refused,
// an output limit past the model's is capped, and a pipe given as a model is refused rather than
// waited on.
// Runs the attention-studio-cli built beside this test (both land in build/bin).
#include "skip.h"
#include "io/model_file.h"
#include "text/tasks.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace as;
using namespace Qt::StringLiterals;

class TestCliBadInput : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void refuses_data();
    void refuses();
    void lenientCorpusListsBadLines();
    void translateAnswersEveryLine();
    void namesTheBadOption_data();
    void namesTheBadOption();
    void outputLimitCappedAtTheModels();
    void refusesAPipeAsModel();
    void attributeContrastRefusesBadLines();

private:
    struct Run {
        int exitCode = -1;
        QString out, err;
    };
    Run run(const QStringList& args, const QByteArray& input = {}, int timeoutMs = 120000);
    QString file(const QString& name, const QByteArray& bytes);
    // $MODEL, $BAD, $GOOD (two good pairs), $SAME (vocabularies of one size, not one),
    // $GARBAGE, $MISSING, $DIR and $OUT in args.
    QStringList expand(QStringList args);

    QString cli_, model_;
    QTemporaryDir dir_;
};

void TestCliBadInput::initTestCase()
{
    QVERIFY(dir_.isValid());
    cli_ = QDir(QCoreApplication::applicationDirPath()).filePath(u"attention-studio-cli"_s);
    QVERIFY2(QFileInfo(cli_).isExecutable(),
             qPrintable(cli_ + u" is missing: build the attention-studio-cli target"_s));
    // A small, untrained model of the toy task's vocabularies.
    const Task task = makeToyTask();
    ModelConfig c;
    c.src_vocab = task.srcVocab.size();
    c.tgt_vocab = task.tgtVocab.size();
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 32;
    c.encoder_layers = c.decoder_layers = 1;
    c.max_len = 20;
    Transformer<float> model(c);
    Rng rng(5);
    model.initXavier(rng);
    model_ = dir_.filePath(u"toy.safetensors"_s);
    QString error;
    QVERIFY2(saveModel(model_, model, task.srcVocab, task.tgtVocab, task.srcTokenizer,
                       task.tgtTokenizer, &error),
             qPrintable(error));
}

TestCliBadInput::Run TestCliBadInput::run(const QStringList& args, const QByteArray& input,
                                          int timeoutMs)
{
    QProcess p;
    p.start(cli_, args);
    Run r;
    if (!p.waitForStarted(10000))
        return r;
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = u"(timed out)"_s;
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;  // -2: crashed
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err += QString::fromUtf8(p.readAllStandardError());
    // In a sanitizer build the program's own reports count as failures whatever its exit code.
    if (r.err.contains(u"Sanitizer"_s) || r.err.contains(u"runtime error:"_s))
        r.exitCode = -3;
    return r;
}

QString TestCliBadInput::file(const QString& name, const QByteArray& bytes)
{
    QFile f(dir_.filePath(name));
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(f.fileName()));
    return f.fileName();
}

QStringList TestCliBadInput::expand(QStringList args)
{
    const QString bad = file(u"bad.tsv"_s, "我有\tI have\nno tab here\n好\tgood\n");
    const QString good = file(u"good.tsv"_s, "我有\tI have\n好\tgood\n");
    const QString garbage = file(u"garbage.safetensors"_s, "this is not a model file at all\n");
    // Two vocabularies of one size (6) that are not one: a b on one side, c d on the other.
    const QString same = file(u"same-size.tsv"_s, QByteArray("a b\tc d\n").repeated(50));
    // 300 distinct Chinese characters on the source side, 10 a line: more than bpe:60 holds.
    QString wideText;
    for (int line = 0; line < 30; ++line) {
        for (int c = 0; c < 10; ++c)
            wideText += QChar(char16_t(0x4E00 + 10 * line + c));
        wideText += u"\tx y\n"_s;
    }
    const QString wide = file(u"wide.tsv"_s, wideText.toUtf8());
    for (QString& a : args)
        a.replace(u"$MODEL"_s, model_)
            .replace(u"$BAD"_s, bad)
            .replace(u"$GOOD"_s, good)
            .replace(u"$SAME"_s, same)
            .replace(u"$WIDE"_s, wide)
            .replace(u"$GARBAGE"_s, garbage)
            .replace(u"$MISSING"_s, dir_.filePath(u"missing.tsv"_s))
            .replace(u"$DIR"_s, dir_.path())
            .replace(u"$OUT"_s, dir_.filePath(u"out.safetensors"_s));
    return args;
}

// Arguments with $MODEL, $BAD (no TAB on line 2), $GARBAGE (not a model) and $MISSING.
void TestCliBadInput::refuses_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stderrHas");
    const QString help = u"--help lists the options"_s;
    auto row = [](const char* name, const QString& args, int code, const QString& has) {
        QTest::newRow(name) << args.split(u' ', Qt::SkipEmptyParts) << code << has;
    };
    row("no command", u""_s, 2, u"usage: attention-studio-cli COMMAND"_s);
    row("unknown command", u"frobnicate"_s, 2, u"unknown command 'frobnicate'"_s);
    row("option as command", u"--bogus"_s, 2, u"unknown command '--bogus'"_s);
    row("train: unknown option", u"train --bogus"_s, 2, u"Unknown option 'bogus'"_s);
    row("train: unknown option, help", u"train --bogus"_s, 2, help);
    row("train: steps not a number", u"train --task toy --steps abc"_s, 2, u"--steps must be"_s);
    row("train: steps negative", u"train --task toy --steps -5"_s, 2, help);
    row("train: unknown task", u"train --task nope"_s, 2, u"unknown task 'nope'"_s);
    row("train: bad config", u"train --task toy --config d_model=abc"_s, 2, u"d_model"_s);
    // Learned positions shorter than the data's sequences: refused before training (it ended
    // the program with an uncaught exception at the first step).
    row("train: learned positions short of the corpus", u"train --task zh-en --config tiny,position=learned,max_len=16 --steps 1"_s,
        2, u"learned positions need max_len of at least 101, the longest sequence zh-en feeds"_s);
    row("train: learned positions short of the windows", u"train --task lm-en --config tiny,arch=decoder-only,position=learned,max_len=32 --steps 1"_s,
        2, u"learned positions need max_len of at least 64, the longest sequence lm-en feeds"_s);
    row("train: missing corpus", u"train --data $MISSING --steps 1 --out $OUT"_s, 1,
        u"not found"_s);
    row("train: corpus is a folder", u"train --data $DIR --steps 1 --out $OUT"_s, 1, u"folder"_s);
    row("train: strict refuses", u"train --data $BAD --strict --steps 1 --config tiny --out $OUT"_s,
        1, u"bad.tsv:2: no TAB"_s);
    row("train: minutes not a number", u"train --data $BAD --minutes soon --out $OUT"_s, 2,
        u"--minutes must be"_s);
    row("train: no out", u"train --data $BAD --steps 1"_s, 2, u"--out"_s);
    row("train: bad tie", u"train --task toy --tie both"_s, 2, u"--tie must be none, tgt or all"_s);
    row("train: bad tie in config", u"train --task toy --config tie=yes"_s, 2, u"'tie' must be"_s);
    row("train: tie all, two vocabularies", u"train --task toy --tie all --steps 1 --out $OUT"_s, 2,
        u"needs a shared vocabulary (--shared-vocab)"_s);
    row("train: tie all, same sizes, two vocabularies",
        u"train --data $SAME --tie all --config tiny --steps 1 --out $OUT"_s, 2,
        u"needs one vocabulary for both sides (--shared-vocab)"_s);
    row("train: shared vocabulary of a generated task",
        u"train --task toy --shared-vocab --steps 1 --out $OUT"_s, 1, u"a shared vocabulary is built from a corpus"_s);
    // One SentencePiece model for both sides needs both to name it (core/SPEC.md §10.3).
    row("train: shared vocabulary with one subword side",
        u"train --data $SAME --shared-vocab --tgt-tok bpe:50 --config tiny --steps 1 --out $OUT"_s, 1,
        u"both need the same kind and size (e.g. bpe:8000 and bpe:8000), here source guessed and "
        "target bpe:50"_s);
    row("train: shared vocabulary, mixed subword kinds",
        u"train --data $SAME --shared-vocab --src-tok unigram:50 --tgt-tok bpe:50 --config tiny "
        "--steps 1 --out $OUT"_s, 1, u"here source unigram:50 and target bpe:50"_s);
    row("train: shared vocabulary, mixed subword sizes",
        u"train --data $SAME --shared-vocab --src-tok bpe:60 --tgt-tok bpe:50 --config tiny "
        "--steps 1 --out $OUT"_s, 1, u"here source bpe:60 and target bpe:50"_s);
    // A SentencePiece size below the text's characters: the program's words, and the size that
    // works (SentencePiece's own text named an option this program does not have).
    row("train: subword size below the characters",
        u"train --data $WIDE --src-tok bpe:60 --config tiny --steps 1 --out $OUT"_s, 1,
        u"bpe:60 is too small for this text"_s);
    row("train: subword size below the characters, the size that works",
        u"train --data $WIDE --src-tok unigram:60 --config tiny --steps 1 --out $OUT"_s, 1,
        u"choose unigram:305 or more, or cjk-char"_s);
    row("translate: no model", u"translate"_s, 2, u"--model MODEL is required"_s);
    row("translate: missing model", u"translate --model $MISSING"_s, 1, u"cannot open"_s);
    row("translate: not a model", u"translate --model $GARBAGE"_s, 1, u"garbage.safetensors"_s);
    row("translate: beam 0", u"translate --model $MODEL --beam 0"_s, 2, u"--beam"_s);
    row("translate: beam not a number", u"translate --model $MODEL --beam x"_s, 2, help);
    row("translate: nbest over beam", u"translate --model $MODEL --beam 2 --nbest 3"_s, 2,
        u"--nbest"_s);
    row("translate: bad max-len", u"translate --model $MODEL --max-len -1"_s, 2, u"--max-len"_s);
    row("translate: unknown option", u"translate --model $MODEL --bogus"_s, 2, u"bogus"_s);
    row("eval: no data", u"eval --model $MODEL"_s, 2, u"--data"_s);
    row("eval: missing data", u"eval --model $MODEL --data $MISSING"_s, 1, u"not found"_s);
    row("eval: bad beam", u"eval --model $MODEL --data $BAD --beam -3"_s, 2, u"--beam"_s);
    row("bleu: no files", u"bleu"_s, 2, u"give HYP and REF"_s);
    row("bleu: missing files", u"bleu $MISSING $MISSING"_s, 1, u"cannot read"_s);
    row("bench: unknown config", u"bench --config huge"_s, 2, u"--config"_s);
    row("bench: threads not a number", u"bench --threads many"_s, 2, u"--threads"_s);
    row("bench heads: no data", u"bench --heads $MODEL"_s, 2, u"--data"_s);
    row("bench heads: missing model", u"bench --heads $MISSING --data $BAD"_s, 1, u"missing"_s);
    row("bench heads: bad runs", u"bench --heads $MODEL --data $BAD --runs 0"_s, 2, u"--runs"_s);
    row("attribute: contrast with attention", u"attribute --model $MODEL --contrast --method attention"_s,
        2, u"--contrast explains with ig or gradxinput"_s);
    row("translate: tree without json", u"translate --model $MODEL --beam 3 --tree"_s, 2,
        u"--tree writes JSON"_s);
    row("translate: json without tree", u"translate --model $MODEL --json"_s, 2, u"give --tree too"_s);
    row("export: nothing", u"export"_s, 2, u"--model"_s);
    row("export: missing model", u"export --model $MISSING --out $OUT"_s, 1, u"missing"_s);
    row("import: nothing", u"import"_s, 2, u"--out"_s);
}

void TestCliBadInput::refuses()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, stderrHas);
    const QString out = dir_.filePath(u"out.safetensors"_s);
    const Run r = run(expand(args));
    QVERIFY2(r.exitCode == exitCode,
             qPrintable(u"exit code %1, expected %2; stderr:\n%3"_s.arg(r.exitCode).arg(exitCode).arg(r.err)));
    QVERIFY2(r.err.contains(stderrHas), qPrintable(u"stderr lacks \"%1\":\n%2"_s.arg(stderrHas, r.err)));
    QVERIFY(!QFile::exists(out));  // a refused run writes nothing
}

// Without --strict the bad lines are skipped, counted and listed by file:line.
void TestCliBadInput::lenientCorpusListsBadLines()
{
    const QString bad = file(u"lenient.tsv"_s, "我有\tI have\nno tab here\n好\tgood\n\t\n我好\tI good\n");
    const QString out = dir_.filePath(u"lenient.safetensors"_s);
    const Run r = run({u"train"_s, u"--threads"_s, u"1"_s, u"--data"_s, bad, u"--steps"_s, u"1"_s, u"--config"_s,
                       u"tiny"_s, u"--batch-tokens"_s, u"16"_s, u"--out"_s, out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(u"lenient.tsv:2: no TAB"_s), qPrintable(r.err));
    QVERIFY2(r.err.contains(u"lenient.tsv:4: both sides empty"_s), qPrintable(r.err));
    QVERIFY(QFile::exists(out));
}

// One output line per input line, whatever the line holds; long lines cut with a notice.
void TestCliBadInput::translateAnswersEveryLine()
{
    const QList<QByteArray> lines = {
        "",                                    // empty
        "   \t ",                              // only spaces
        "\xe2\x80\x8b\x01\x7f",                // only invisible and control characters
        "我有一只猫",                           // 猫: not in the vocabulary
        QByteArray(10000 * 3, '\0'),           // filled below: 10,000 x 我
        "我 Hello привет مرحبا 好",             // mixed scripts
        "我有👍🏽🇨🇳😀",                          // emoji
        "我\x1b[31m有\x01朋友",                 // control characters
        "ca\xff\xfe bad UTF-8",                // invalid UTF-8
        "我有\r",                              // CRLF
    };
    QByteArray input;
    for (const QByteArray& l : lines)
        input += (l.size() == 30000 ? QString(10000, QChar(0x6211)).toUtf8() : l) + '\n';
    // Greedy: one line per input line; the lines with nothing to translate get an empty one.
    Run r = run({u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_}, input);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList out = r.out.split(u'\n');
    QCOMPARE(out.size(), lines.size() + 1);  // the last line ends with '\n' too
    for (int i : {0, 1, 2})
        QVERIFY2(out[i].isEmpty(), qPrintable(u"line %1: \"%2\""_s.arg(i + 1).arg(out[i])));
    QVERIFY2(r.err.contains(u"line 5 has 10000 characters; only the first 2000"_s), qPrintable(r.err));

    // Beam search with an n-best list: per input line "rank<TAB>score<TAB>text" lines, then an
    // empty line; none for the lines with nothing to translate.
    r = run({u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_, u"--beam"_s, u"3"_s, u"--nbest"_s, u"2"_s}, input);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList nbestLines = r.out.split(u'\n');
    qsizetype at = 0;
    for (int i = 0; i < lines.size(); ++i) {
        QStringList hyps;
        while (at < nbestLines.size() && !nbestLines[at].isEmpty())
            hyps << nbestLines[at++];
        QVERIFY2(at < nbestLines.size(), qPrintable(u"the output ends before input line %1"_s.arg(i + 1)));
        ++at;  // the empty line that ends the list
        QVERIFY2(i < 3 ? hyps.isEmpty() : hyps.size() >= 1 && hyps.size() <= 2,
                 qPrintable(u"line %1: %2"_s.arg(i + 1).arg(hyps.join(u" | "_s))));
        for (int k = 0; k < hyps.size(); ++k)
            QVERIFY2(hyps[k].startsWith(u"%1\t"_s.arg(k + 1)), qPrintable(hyps[k]));
    }
    QCOMPARE(at, nbestLines.size() - 1);  // only the empty piece after the final '\n' is left

    // Empty input is answered with nothing (it was one empty line, and attribute printed an
    // empty result: QTextStream::atEnd() on stdin is false before anything is read).
    for (const QStringList& args : {QStringList{u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_},
                                    QStringList{u"attribute"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_}}) {
        r = run(args, {});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), qPrintable(args.first() + u": \""_s + r.out + u"\""_s));
    }
}

// Each bad option gets a message of its own that names it and the value given (before, translate
// said "--model MODEL is required; --beam ≥ 1; 1 ≤ --nbest ≤ --beam" whatever was wrong); NaN
// and infinity are refused like any other bad number (--minutes nan trained for ever), in
// --config too; a list with an empty entry is refused (--mask-heads ',,,' masked nothing).
void TestCliBadInput::namesTheBadOption_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("stderrHas");
    auto row = [](const char* name, const QString& args, const QStringList& has) {
        QTest::newRow(name) << args.split(u' ', Qt::SkipEmptyParts) << has;
    };
    row("translate: threads -1", u"translate --model $MODEL --threads -1"_s, {u"--threads"_s, u"'-1'"_s});
    row("translate: beam abc", u"translate --model $MODEL --beam abc"_s, {u"--beam"_s, u"'abc'"_s});
    row("translate: nbest 0", u"translate --model $MODEL --nbest 0"_s, {u"--nbest"_s, u"'0'"_s});
    row("translate: max-len nan", u"translate --model $MODEL --max-len nan"_s, {u"--max-len"_s, u"'nan'"_s});
    row("translate: mask-heads ,,,", u"translate --model $MODEL --mask-heads ,,,"_s,
        {u"--mask-heads"_s, u"empty entry"_s});
    row("eval: mask-heads stray comma", u"eval --model $MODEL --data $GOOD --mask-heads encoder.self:0:0,"_s,
        {u"--mask-heads"_s, u"empty entry"_s});
    row("eval: beam -3", u"eval --model $MODEL --data $GOOD --beam -3"_s, {u"--beam"_s, u"'-3'"_s});
    row("heads: threads x", u"heads --model $MODEL --data $GOOD --threads x"_s, {u"--threads"_s, u"'x'"_s});
    row("heads: max-sentences 0", u"heads --model $MODEL --data $GOOD --max-sentences 0"_s,
        {u"--max-sentences"_s, u"'0'"_s});
    row("heads: mask-heads ,", u"heads --model $MODEL --data $GOOD --mask-heads ,"_s,
        {u"--mask-heads"_s, u"empty entry"_s});
    row("attribute: steps 0", u"attribute --model $MODEL --steps 0"_s, {u"--steps"_s, u"'0'"_s});
    row("attribute: method shap", u"attribute --model $MODEL --method shap"_s, {u"--method"_s, u"'shap'"_s});
    row("attribute: threads -2", u"attribute --model $MODEL --threads -2"_s, {u"--threads"_s, u"'-2'"_s});
    row("train: minutes nan", u"train --task toy --minutes nan"_s, {u"--minutes"_s, u"'nan'"_s});
    row("train --data: minutes nan", u"train --data $GOOD --min-freq 1,1 --config tiny --minutes nan --out $OUT"_s,
        {u"--minutes"_s, u"'nan'"_s});
    row("train: minutes inf", u"train --task toy --minutes inf"_s, {u"--minutes"_s, u"'inf'"_s});
    row("train: clip-norm nan", u"train --task toy --steps 1 --clip-norm nan"_s, {u"--clip-norm"_s, u"'nan'"_s});
    row("train: clip-norm inf", u"train --task toy --steps 1 --clip-norm inf"_s, {u"--clip-norm"_s, u"'inf'"_s});
    row("train: config dropout nan", u"train --task toy --steps 1 --config dropout=nan"_s,
        {u"--config"_s, u"dropout=nan"_s});
    row("train: config label_smoothing inf", u"train --task toy --steps 1 --config small,label_smoothing=inf"_s,
        {u"--config"_s, u"label_smoothing=inf"_s});
    row("import: config dropout nan", u"import $MODEL --out $OUT --config dropout=nan"_s,
        {u"--config"_s, u"dropout=nan"_s});
}

void TestCliBadInput::namesTheBadOption()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, stderrHas);
    // A short timeout: the old train --minutes nan never ended.
    const Run r = run(expand(args), "我有\n", 30000);
    QVERIFY2(r.exitCode == 2, qPrintable(u"exit code %1, expected 2; stderr:\n%2"_s.arg(r.exitCode).arg(r.err)));
    for (const QString& has : stderrHas)
        QVERIFY2(r.err.contains(has), qPrintable(u"stderr lacks \"%1\":\n%2"_s.arg(has, r.err)));
    QVERIFY(!QFile::exists(dir_.filePath(u"out.safetensors"_s)));
}

// --max-len past the model's max_len is capped at it, with a note (it used to allocate for the
// number asked for and abort with std::bad_alloc).
void TestCliBadInput::outputLimitCappedAtTheModels()
{
    const QStringList huge{u"--max-len"_s, u"1000000000"_s};
    Run r = run(QStringList{u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_} + huge, "我有\n好\n", 60000);
    QVERIFY2(r.exitCode == 0, qPrintable(u"exit code %1; stderr:\n%2"_s.arg(r.exitCode).arg(r.err)));
    QCOMPARE(r.out.count(u'\n'), 2);
    QVERIFY2(r.err.contains(u"--max-len 1000000000 is more than the model's max_len"_s), qPrintable(r.err));
    r = run(expand({u"eval"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_, u"--data"_s, u"$GOOD"_s, u"--json"_s}) + huge, {}, 60000);
    QVERIFY2(r.exitCode == 0, qPrintable(u"exit code %1; stderr:\n%2"_s.arg(r.exitCode).arg(r.err)));
    QVERIFY2(r.out.contains(u"\"bleu\""_s), qPrintable(r.out));
    QVERIFY2(r.err.contains(u"--max-len"_s), qPrintable(r.err));
}

// A pipe (FIFO) where a model or checkpoint belongs is refused at once: opening it used to wait
// for a writer for ever.
void TestCliBadInput::refusesAPipeAsModel()
{
    const QString fifo = dir_.filePath(u"model.fifo"_s);
    QVERIFY2(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0, "mkfifo failed");
    const QString out = dir_.filePath(u"fifo-out.safetensors"_s);
    const QList<QStringList> commands = {
        {u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, fifo},
        {u"eval"_s, u"--threads"_s, u"1"_s, u"--model"_s, fifo, u"--data"_s, u"$GOOD"_s},
        {u"heads"_s, u"--threads"_s, u"1"_s, u"--model"_s, fifo, u"--data"_s, u"$GOOD"_s},
        {u"attribute"_s, u"--threads"_s, u"1"_s, u"--model"_s, fifo},
        {u"export"_s, u"--model"_s, fifo, u"--out"_s, out},
        {u"import"_s, fifo, u"--out"_s, out},
        {u"bench"_s, u"--threads"_s, u"1"_s, u"--heads"_s, fifo, u"--data"_s, u"$GOOD"_s},
        {u"train"_s, u"--threads"_s, u"1"_s, u"--resume"_s, fifo, u"--steps"_s, u"1"_s},
    };
    for (const QStringList& args : commands) {
        const Run r = run(expand(args), "我有\n", 20000);  // a hang fails here, after 20 s
        const QString what = args.join(u' ');
        QVERIFY2(r.exitCode == 1, qPrintable(u"%1: exit code %2; stderr:\n%3"_s.arg(what).arg(r.exitCode).arg(r.err)));
        QVERIFY2(r.err.contains(u"is not a regular file"_s), qPrintable(what + u": "_s + r.err));
        QVERIFY(!QFile::exists(out));
    }
}

// attribute --contrast: a line whose target and alternative differ in length, are the same,
// or are missing is named with its number and why, and skipped; the good lines are answered,
// and the exit code says that some were not.
void TestCliBadInput::attributeContrastRefusesBadLines()
{
    const QByteArray input = "我有\tI have\tI have good\n"   // 2 tokens against 3
                             "我有\tI have\tI have\n"        // the same
                             "\n"                            // empty
                             "我有\tI have\t\n"              // empty alternative
                             "我有\tI have\n"                // no alternative
                             "我有\tI have\tI good\n";      // good: position 1
    const Run r = run({u"attribute"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_, u"--contrast"_s, u"--method"_s,
                       u"gradxinput"_s, u"--json"_s}, input);
    QVERIFY2(r.exitCode == 1, qPrintable(u"exit %1:\n%2"_s.arg(r.exitCode).arg(r.err)));
    for (const QString& why : {u"line 1: the target has 2 tokens and the alternative 3"_s,
                               u"line 2: the target and the alternative are the same tokens"_s,
                               u"line 3: the line is empty"_s,
                               u"line 4: the target or the alternative is empty"_s,
                               u"line 5: expected source<TAB>target<TAB>alternative, found 2"_s})
        QVERIFY2(r.err.contains(why), qPrintable(u"stderr lacks \"%1\":\n%2"_s.arg(why, r.err)));
    QVERIFY(!r.err.contains(u"line 6"_s));
    const QStringList out = r.out.trimmed().split(u'\n');
    QCOMPARE(out.size(), 1);  // only the good line is answered
    QVERIFY2(out[0].contains(u"\"contrast_positions\":[1]"_s), qPrintable(out[0]));
}

AS_TEST_GUILESS_MAIN(TestCliBadInput)
#include "test_cli_bad_input.moc"
