// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Embeddings view and what the window does with it:
//  - the view draws a record made by hand (the points read back from the curve, the labels of
//    the most frequent tokens, the explained variance on the axes), ignores a record of another
//    table, and a click on a point asks for that token's neighbours, which it then lists;
//  - in the window, after 20 toy steps, the worker's projection of the source embedding and of
//    the generator's rows equals the SVD of the exported model's tables (JacobiSVD in double,
//    up to each component's sign, which is the first-time rule's: largest |loading| positive),
//    and a click lists the 10 neighbours a brute-force cosine over the exported rows gives.
#include "skip.h"
#include "embedding_view.h"
#include "main_window.h"
#include "view_set.h"
#include "worker_link.h"

#include "io/model_file.h"
#include "model/transformer.h"
#include "window_runs.h"

#include <Eigen/SVD>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace as;
using namespace Qt::StringLiterals;

class TestUiEmbeddings : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void viewDrawsRecordAndAsks();
    void windowProjectsTheModelsTables();
    void tiedGeneratorIsTheTargetEmbedding();
};

namespace {

// Shown labels do not overlap; each hidden one would overlap one shown before it.
bool labelsDoNotOverlap(const ui::EmbeddingView& v)
{
    const QStringList shown = v.shownLabels();
    std::vector<QRectF> placed;
    int s = 0;
    for (int i = 0; i < v.labels().size(); ++i) {
        const QRectF rect = v.labelRect(i);
        const bool clashes = std::any_of(placed.begin(), placed.end(), [&](const QRectF& r) { return r.intersects(rect); });
        const bool isShown = s < shown.size() && shown[s] == v.labels()[i] && !clashes;
        if (isShown) {
            placed.push_back(rect);
            ++s;
        } else if (!clashes) {
            qWarning("label %d (%s) hidden without a clash", i, qPrintable(v.labels()[i]));
            return false;
        }
    }
    return s == shown.size();
}

// Each record coordinate against the SVD of the table's centred rows (double): the same up to
// each component's sign, and that sign the one making the largest |loading| of V positive.
bool matchesSvd(const EmbeddingRecord& r, const Eigen::MatrixXd& table)
{
    const Eigen::MatrixXd centred = table.rowwise() - table.colwise().mean();
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(centred, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Eigen::VectorXd s = svd.singularValues();
    bool ok = true;
    for (int k = 0; k < 2; ++k) {
        Eigen::Index at = 0;
        svd.matrixV().col(k).cwiseAbs().maxCoeff(&at);
        const double sign = svd.matrixV()(at, k) < 0 ? -1 : 1;
        const std::vector<double>& got = k == 0 ? r.x : r.y;
        for (std::size_t i = 0; i < got.size(); ++i) {
            const double expected = sign * svd.matrixU()(Eigen::Index(i), k) * s(k);
            if (std::abs(got[i] - expected) > 1e-6 * s(0)) {
                qWarning("PC%d of token %zu: %g, SVD %g", k + 1, i, got[i], expected);
                ok = false;
                break;
            }
        }
        if (std::abs(r.explained(k) - s(k) * s(k) / s.squaredNorm()) > 1e-9)
            ok = false;
    }
    return ok;
}

Eigen::MatrixXd tableOf(const ModelBundle& m, const char* name)
{
    const ParamInfo* info = m.model->params().find(name);
    return ConstMatMap<float>(m.model->params().values() + info->offset, info->rows(), info->cols())
        .cast<double>();
}

}  // namespace

void TestUiEmbeddings::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestUiEmbeddings::viewDrawsRecordAndAsks()
{
    ui::EmbeddingView v;
    v.resize(1100, 700);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    QSignalSpy asked(&v, &ui::EmbeddingView::embeddingRequested);
    QSignalSpy neighbours(&v, &ui::EmbeddingView::neighboursRequested);

    auto r = std::make_shared<EmbeddingRecord>();
    r->step = 40;
    r->table = EmbeddingTable::Source;
    r->vocabSize = 100;
    const int shown = 50;
    for (int i = 0; i < shown; ++i) {
        r->x.push_back(std::cos(0.37 * i) * (1 + i % 5));
        r->y.push_back(std::sin(0.37 * i) * (1 + i % 3) * 0.5);
        r->tokens << u"w%1"_s.arg(i);
    }
    r->explained = {0.625, 0.125};
    v.setRecord(r);
    ui::replotQueuedNow();
    // One point per token, in id order, where the record puts it.
    QCOMPARE(v.points()->data()->size(), shown);
    int i = 0;
    for (auto it = v.points()->data()->constBegin(); it != v.points()->data()->constEnd(); ++it, ++i) {
        QCOMPARE(it->t, double(i));
        QCOMPARE(it->key, r->x[std::size_t(i)]);
        QCOMPARE(it->value, r->y[std::size_t(i)]);
    }
    // Labels: the words by frequency, then the specials; none shown over another.
    const int kLabels = ui::EmbeddingView::kLabels;
    QCOMPARE(v.labels(), r->tokens.mid(Vocab::kSpecials, kLabels - Vocab::kSpecials) + r->tokens.mid(0, Vocab::kSpecials));
    QVERIFY(labelsDoNotOverlap(v));
    QVERIFY(v.shownLabels().size() < kLabels);  // this cloud is dense enough to hide some
    QVERIFY2(v.plot()->xAxis->label().contains(u"PC1 (62.5 %"_s), qPrintable(v.plot()->xAxis->label()));
    QVERIFY2(v.plot()->yAxis->label().contains(u"PC2 (12.5 %"_s), qPrintable(v.plot()->yAxis->label()));
    // A record of another table (overtaken by a change of table) is not drawn.
    auto other = std::make_shared<EmbeddingRecord>(*r);
    other->table = EmbeddingTable::Generator;
    other->x.assign(std::size_t(shown), 0.0);
    v.setRecord(other);
    QCOMPARE(v.record(), EmbeddingRecordPtr(r));

    // A click on token 7 asks for its neighbours; the answer is listed.
    const QPoint at = v.pointPixel(7);
    QCOMPARE(v.pointAt(at), 7);
    QTest::mouseClick(v.plot(), Qt::LeftButton, {}, at);
    QCOMPARE(neighbours.count(), 1);
    QCOMPARE(neighbours.first().at(0).value<EmbeddingTable>(), EmbeddingTable::Source);
    QCOMPARE(neighbours.first().at(1).toInt(), 7);
    auto n = std::make_shared<NeighboursRecord>();
    n->step = 40;
    n->table = EmbeddingTable::Source;
    n->id = 7;
    n->token = u"w7"_s;
    for (int k = 0; k < 10; ++k) {
        n->neighbours.push_back({k == 0 ? 60 : 10 + k, 0.9 - 0.05 * k});  // 60: not drawn
        n->tokens << u"w%1"_s.arg(n->neighbours.back().id);
    }
    v.setNeighbours(n);
    QCOMPARE(v.neighbourList()->topLevelItemCount(), 10);
    for (int k = 0; k < 10; ++k) {
        const QTreeWidgetItem* item = v.neighbourList()->topLevelItem(k);
        QCOMPARE(item->text(0), n->tokens[k]);
        QCOMPARE(item->text(1).toInt(), n->neighbours[std::size_t(k)].id);
        QCOMPARE(item->text(2), QString::number(n->neighbours[std::size_t(k)].cosine, 'f', 3));
    }
    // Marked: the token, and the 9 neighbours drawn (60 is beyond the points shown).
    QCOMPARE(v.points()->data()->size(), shown);
    QCOMPARE(v.selected(), 7);
    QCOMPARE(v.chosenMark()->data()->size(), 1);
    QCOMPARE(v.chosenMark()->data()->constBegin()->key, r->x[7]);
    QCOMPARE(v.chosenMark()->data()->constBegin()->value, r->y[7]);
    QCOMPARE(v.neighbourMarks()->data()->size(), 9);
    for (auto it = v.neighbourMarks()->data()->constBegin(); it != v.neighbourMarks()->data()->constEnd(); ++it) {
        const int id = n->neighbours[std::size_t(it->t) + 1].id;
        QCOMPARE(it->key, r->x[std::size_t(id)]);
        QCOMPARE(it->value, r->y[std::size_t(id)]);
    }
    // An answer for another token (an earlier click) is not listed.
    auto stale = std::make_shared<NeighboursRecord>(*n);
    stale->id = 3;
    v.setNeighbours(stale);
    QCOMPARE(v.neighbours(), NeighboursRecordPtr(n));
    // A token beyond the labelled ones gets a label of its own once its neighbours are listed.
    QTest::mouseClick(v.plot(), Qt::LeftButton, {}, v.pointPixel(45));
    QCOMPARE(neighbours.last().at(1).toInt(), 45);
    auto rare = std::make_shared<NeighboursRecord>(*n);
    rare->id = 45;
    rare->token = u"w45"_s;
    v.setNeighbours(rare);
    ui::replotQueuedNow();
    QCOMPARE(v.labels().value(0), u"w45"_s);  // first: always shown
    QCOMPARE(v.shownLabels().value(0), u"w45"_s);
    QCOMPARE(v.labels().size(), kLabels + 1);
    QVERIFY(labelsDoNotOverlap(v));
    QTest::mouseClick(v.plot(), Qt::LeftButton, {}, v.pointPixel(7));
    v.setNeighbours(n);
    ui::replotQueuedNow();
    QCOMPARE(v.labels().size(), kLabels);
    QCOMPARE(v.shownLabels().value(0), u"w7"_s);
    // New weights: the selected token's neighbours are asked for again.
    auto later = std::make_shared<EmbeddingRecord>(*r);
    later->step = 50;
    const int before = neighbours.count();
    v.setRecord(later);
    QCOMPARE(neighbours.count(), before + 1);
    QCOMPARE(neighbours.last().at(1).toInt(), 7);
    // Choosing another table asks for it and forgets the selection.
    QCOMPARE(asked.count(), 0);
    v.setTable(EmbeddingTable::Generator);
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.first().at(0).value<EmbeddingTable>(), EmbeddingTable::Generator);
    QCOMPARE(v.selected(), -1);
    QCOMPARE(v.neighbourList()->topLevelItemCount(), 0);
}

void TestUiEmbeddings::windowProjectsTheModelsTables()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    w.applySettings(SessionSettings::defaultsFor(u"toy"_s));
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 20000));
    w.link()->step(20);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 20 && !w.isRunning(); }, 60000));
    ui::EmbeddingView* v = w.views()->embedding();
    w.views()->showView(v);  // asks, being shown
    QVERIFY(QTest::qWaitFor([&] { return v->record() && v->record()->step == 20; }, 20000));
    QTemporaryDir dir;
    const QString file = dir.filePath(u"m.safetensors"_s);
    QVERIFY(test::exportFromWindow(w, file));
    QString error;
    const std::optional<ModelBundle> m = loadModel(file, &error);
    QVERIFY2(m, qPrintable(error));

    const EmbeddingRecordPtr src = v->record();
    QCOMPARE(src->table, EmbeddingTable::Source);
    QCOMPARE(src->tokens, m->srcVocab.tokens());  // small: every token shown
    const Eigen::MatrixXd srcRows = tableOf(*m, "src_embed.weight");
    QVERIFY(matchesSvd(*src, srcRows));

    v->setTable(EmbeddingTable::Generator);
    QVERIFY(QTest::qWaitFor([&] { return v->record() && v->record()->table == EmbeddingTable::Generator; }, 20000));
    QCOMPARE(v->record()->tokens, m->tgtVocab.tokens());
    const Eigen::MatrixXd genRows = tableOf(*m, "generator.weight");
    QVERIFY(matchesSvd(*v->record(), genRows));

    // A click on the most frequent word: its 10 neighbours, brute force over the file's rows.
    ui::replotQueuedNow();
    const int id = Vocab::kSpecials;
    QTest::mouseClick(v->plot(), Qt::LeftButton, {}, v->pointPixel(id));
    if (v->selected() != id)  // another point drawn on the same pixel
        v->selectToken(id);
    QVERIFY(QTest::qWaitFor([&] { return v->neighbours() && v->neighbours()->id == id; }, 20000));
    std::vector<std::pair<double, int>> all;
    for (int i = 0; i < genRows.rows(); ++i)
        if (i != id)
            all.push_back({genRows.row(i).dot(genRows.row(id)) / (genRows.row(i).norm() * genRows.row(id).norm()), i});
    std::stable_sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.first > b.first; });
    QCOMPARE(v->neighbourList()->topLevelItemCount(), 10);
    for (int k = 0; k < 10; ++k) {
        QCOMPARE(v->neighbourList()->topLevelItem(k)->text(1).toInt(), all[std::size_t(k)].second);
        QCOMPARE(v->neighbourList()->topLevelItem(k)->text(0), m->tgtVocab.token(all[std::size_t(k)].second));
        QVERIFY(std::abs(v->neighbours()->neighbours[std::size_t(k)].cosine - all[std::size_t(k)].first) < 1e-9);
    }
    w.close();
}

// Weight tying (core/SPEC.md §2.6): the generator's table is the target embedding's matrix, and
// the view's note says so instead of "a parameter of its own".
void TestUiEmbeddings::tiedGeneratorIsTheTargetEmbedding()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    SessionSettings s = SessionSettings::defaultsFor(u"toy"_s);
    s.model.tie = Tie::Tgt;
    w.applySettings(s);
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 20000));
    w.link()->step(10);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 10 && !w.isRunning(); }, 60000));
    ui::EmbeddingView* v = w.views()->embedding();
    v->setTable(EmbeddingTable::Generator);
    w.views()->showView(v);
    QVERIFY(QTest::qWaitFor([&] { return v->record() && v->record()->step == 10
                                         && v->record()->table == EmbeddingTable::Generator; }, 20000));
    QCOMPARE(v->record()->tie, Tie::Tgt);
    QTemporaryDir dir;
    const QString file = dir.filePath(u"tied.safetensors"_s);
    QVERIFY(test::exportFromWindow(w, file));
    QString error;
    const std::optional<ModelBundle> m = loadModel(file, &error);
    QVERIFY2(m, qPrintable(error));
    QCOMPARE(m->config.tie, Tie::Tgt);
    QVERIFY(!m->model->params().find("generator.weight"));
    QVERIFY(matchesSvd(*v->record(), tableOf(*m, "tgt_embed.weight")));
    bool said = false;
    for (const QLabel* l : v->findChildren<QLabel*>())
        said = said || (l->text().contains(u"Tied: the same matrix as the target embedding"_s)
                        && !l->text().contains(u"a parameter of its own"_s));
    QVERIFY(said);
    w.close();
}

AS_TEST_MAIN(TestUiEmbeddings)
#include "test_ui_embeddings.moc"
