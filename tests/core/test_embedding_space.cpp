// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Embedding space (eval/embedding_space.h): the first two principal components of a matrix's
// rows against an independent computation (JacobiSVD of the centred matrix, in double; a 2-D
// case worked by hand), the explained variance against the singular values, the sign rule
// (first time: largest |loading| positive; afterwards: the previous orientation, even against
// the first-time rule and for a component given back negated), and the nearest neighbours by
// cosine against a brute-force double computation with ties and a zero row.
#include "skip.h"
#include "eval/embedding_space.h"
#include "model/transformer.h"
#include "text/tasks.h"
#include "toy_model.h"

#include <Eigen/SVD>
#include <QTest>

#include <random>

using namespace as;

namespace {

Mat<float> randomRows(int n, int d, unsigned seed)
{
    std::mt19937 gen(seed);
    std::normal_distribution<float> normal;
    Mat<float> m(n, d);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < d; ++j)
            m(i, j) = normal(gen) * float(1 + j % 3) + float(j);  // unequal variances, a mean
    return m;
}

}  // namespace

class TestEmbeddingSpace : public QObject {
    Q_OBJECT
private slots:
    void pcaAgainstSvd();
    void handWorkedTwoDimensions();
    void signFollowsPreviousRedraw();
    void neighboursAgainstBruteForce();
    void projectorShowsMostFrequent();
};

void TestEmbeddingSpace::pcaAgainstSvd()
{
    const int n = 40, d = 6;
    const Mat<float> rows = randomRows(n, d, 11);
    const Pca2 p = principalComponents(rows);

    // Independent: the SVD of the centred matrix, X_c = U S Vᵀ; covariance eigenvalues s²/n.
    const Eigen::MatrixXd x = rows.cast<double>();
    const Eigen::MatrixXd xc = x.rowwise() - x.colwise().mean();
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(xc, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Eigen::VectorXd s = svd.singularValues();
    const double total = s.squaredNorm() / n;
    QVERIFY(s(0) > s(1) * 1.05 && s(1) > s(2) * 1.05);  // distinct: the components are defined
    for (int k = 0; k < 2; ++k) {
        QVERIFY(std::abs(p.variance(k) - s(k) * s(k) / n) < 1e-9 * total);
        QVERIFY(std::abs(std::abs(p.components.col(k).dot(svd.matrixV().col(k))) - 1) < 1e-9);
        QVERIFY(std::abs(p.components.col(k).norm() - 1) < 1e-12);
        QVERIFY(std::abs(p.explained()(k) - s(k) * s(k) / s.squaredNorm()) < 1e-9);
    }
    QVERIFY(std::abs(p.totalVariance - total) < 1e-9 * total);
    // The coordinates are U S up to each component's sign.
    const Eigen::MatrixX2d xy = projectRows(rows, p);
    for (int k = 0; k < 2; ++k) {
        const double sign = p.components.col(k).dot(svd.matrixV().col(k)) > 0 ? 1 : -1;
        const Eigen::VectorXd expected = sign * svd.matrixU().col(k) * s(k);
        QVERIFY((xy.col(k) - expected).cwiseAbs().maxCoeff() < 1e-9 * s(0));
    }
}

void TestEmbeddingSpace::handWorkedTwoDimensions()
{
    // Four points about (10, 5): ±2 along u = (0.8, 0.6), ±1 along v = (−0.6, 0.8). Covariance
    // = (2·4 u uᵀ + 2·1 v vᵀ) / 4 = 2 u uᵀ + 0.5 v vᵀ: PC1 = u (variance 2), PC2 = v (0.5),
    // explained 2 / 2.5 = 80 % and 20 %. Signs: the largest |loading| positive: u as it is
    // (0.8), v as it is (0.8).
    Mat<float> rows(4, 2);
    rows << 11.6f, 6.2f, 8.4f, 3.8f, 9.4f, 5.8f, 10.6f, 4.2f;
    const Pca2 p = principalComponents(rows);
    QVERIFY((p.mean - Eigen::RowVector2d(10, 5)).cwiseAbs().maxCoeff() < 1e-6);
    QVERIFY((p.components.col(0) - Eigen::Vector2d(0.8, 0.6)).cwiseAbs().maxCoeff() < 1e-6);
    QVERIFY((p.components.col(1) - Eigen::Vector2d(-0.6, 0.8)).cwiseAbs().maxCoeff() < 1e-6);
    QVERIFY(std::abs(p.variance(0) - 2.0) < 1e-5 && std::abs(p.variance(1) - 0.5) < 1e-5);
    QVERIFY(std::abs(p.explained()(0) - 0.8) < 1e-6 && std::abs(p.explained()(1) - 0.2) < 1e-6);
    const Eigen::MatrixX2d xy = projectRows(rows, p);
    Eigen::MatrixX2d expected(4, 2);
    expected << 2, 0, -2, 0, 0, 1, 0, -1;
    QVERIFY((xy - expected).cwiseAbs().maxCoeff() < 1e-5);
}

void TestEmbeddingSpace::signFollowsPreviousRedraw()
{
    const Mat<float> rows = randomRows(50, 8, 5);
    const Pca2 first = principalComponents(rows);
    for (int k = 0; k < 2; ++k) {  // first time: each column's largest |loading| is positive
        Eigen::Index at = 0;
        first.components.col(k).cwiseAbs().maxCoeff(&at);
        QVERIFY(first.components(at, k) > 0);
    }
    // A later redraw of slightly changed weights keeps the orientation.
    Mat<float> moved = rows + 0.05f * randomRows(50, 8, 6);
    const Pca2 later = principalComponents(moved, &first.components);
    for (int k = 0; k < 2; ++k)
        QVERIFY(later.components.col(k).dot(first.components.col(k)) > 0.9);
    // Previous components of the opposite orientation win over the first-time rule.
    const Eigen::MatrixXd opposite = -first.components;
    const Pca2 againstRule = principalComponents(rows, &opposite);
    QVERIFY((againstRule.components + first.components).cwiseAbs().maxCoeff() < 1e-12);
    // The coordinates follow: the cloud is mirrored, not rotated.
    QVERIFY((projectRows(rows, againstRule) + projectRows(rows, first)).cwiseAbs().maxCoeff() < 1e-9);
    // A solver's answer with one column negated is turned back; the other is left alone.
    Eigen::MatrixXd flipped = first.components;
    flipped.col(1) *= -1;
    orientComponents(flipped, &first.components);
    QVERIFY((flipped - first.components).cwiseAbs().maxCoeff() == 0);
    // A previous of another shape (another model) falls back to the first-time rule.
    Eigen::MatrixXd other = Eigen::MatrixXd::Ones(3, 2);
    flipped = -first.components;
    orientComponents(flipped, &other);
    QVERIFY((flipped - first.components).cwiseAbs().maxCoeff() == 0);
}

void TestEmbeddingSpace::neighboursAgainstBruteForce()
{
    Mat<float> rows = randomRows(30, 5, 9);
    rows.row(7) = rows.row(3);   // a tie: rows 3 and 7 are equally close to everything
    rows.row(12) = rows.row(3);  // and a third
    rows.row(20).setZero();      // cosine 0 with every row
    for (int id : {0, 3, 20, 29}) {
        // Brute force: plain loops in double, a full stable sort.
        std::vector<std::pair<double, int>> all;
        for (int i = 0; i < rows.rows(); ++i) {
            if (i == id)
                continue;
            double dot = 0, na = 0, nb = 0;
            for (int j = 0; j < rows.cols(); ++j) {
                dot += double(rows(id, j)) * double(rows(i, j));
                na += double(rows(id, j)) * double(rows(id, j));
                nb += double(rows(i, j)) * double(rows(i, j));
            }
            all.push_back({na > 0 && nb > 0 ? dot / std::sqrt(na * nb) : 0.0, i});
        }
        std::stable_sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.first > b.first + 1e-12; });
        const std::vector<Neighbour> got = nearestByCosine(rows, id, 10);
        QCOMPARE(int(got.size()), 10);
        for (int r = 0; r < 10; ++r) {
            QVERIFY2(got[std::size_t(r)].id == all[std::size_t(r)].second,
                     qPrintable(QStringLiteral("id %1 rank %2: %3 vs %4").arg(id).arg(r)
                                    .arg(got[std::size_t(r)].id).arg(all[std::size_t(r)].second)));
            QVERIFY(std::abs(got[std::size_t(r)].cosine - all[std::size_t(r)].first) < 1e-12);
        }
    }
    // Ties by id: from row 0, rows 3, 7 and 12 are equal and come in that order.
    const std::vector<Neighbour> got = nearestByCosine(rows, 0, 29);
    std::vector<int> tied;
    for (const Neighbour& nb : got)
        if (nb.id == 3 || nb.id == 7 || nb.id == 12)
            tied.push_back(nb.id);
    QCOMPARE(tied, (std::vector<int>{3, 7, 12}));
    // From row 3 its duplicates come first, at cosine 1.
    const std::vector<Neighbour> fromThree = nearestByCosine(rows, 3, 2);
    QCOMPARE(fromThree[0].id, 7);
    QCOMPARE(fromThree[1].id, 12);
    QVERIFY(std::abs(fromThree[0].cosine - 1) < 1e-12);
}

void TestEmbeddingSpace::projectorShowsMostFrequent()
{
    const Task task = makeToyTask();
    Transformer<float> model(test::toyModelConfig(task));
    Rng rng(4);
    model.initXavier(rng);
    // The three tables, each [vocab, d_model]; the generator's rows are its own parameters.
    const ModelConfig& c = model.config();
    QCOMPARE(int(embeddingRows(model, EmbeddingTable::Source).rows()), c.src_vocab);
    QCOMPARE(int(embeddingRows(model, EmbeddingTable::Generator).rows()), c.tgt_vocab);
    QCOMPARE(int(embeddingRows(model, EmbeddingTable::Target).cols()), c.d_model);
    QVERIFY(embeddingRows(model, EmbeddingTable::Generator).data()
            != embeddingRows(model, EmbeddingTable::Target).data());

    const auto rows = embeddingRows(model, EmbeddingTable::Target);
    EmbeddingProjector projector;
    const int shown = 6;
    const EmbeddingRecordPtr r = projector.project(rows, task.tgtVocab, EmbeddingTable::Target, 17, shown);
    QCOMPARE(r->step, 17L);
    QCOMPARE(r->vocabSize, c.tgt_vocab);
    QCOMPARE(int(r->x.size()), shown);
    QCOMPARE(r->tokens, task.tgtVocab.tokens().mid(0, shown));  // ids in frequency order
    // The components are of the whole table; the points its first rows.
    const Pca2 p = principalComponents(rows);
    const Eigen::MatrixX2d xy = projectRows(rows, p);
    for (int i = 0; i < shown; ++i)
        QVERIFY(std::abs(r->x[std::size_t(i)] - xy(i, 0)) < 1e-9 && std::abs(r->y[std::size_t(i)] - xy(i, 1)) < 1e-9);
    QVERIFY(std::abs(r->explained(0) - p.explained()(0)) < 1e-12);
    // The next record is oriented as this one, even when forgetting would choose otherwise.
    const EmbeddingRecordPtr again = projector.project(rows, task.tgtVocab, EmbeddingTable::Target, 18, shown);
    QCOMPARE(again->x, r->x);
    const NeighboursRecordPtr nb = EmbeddingProjector::neighbours(rows, task.tgtVocab, EmbeddingTable::Target, 5, 17);
    QCOMPARE(int(nb->neighbours.size()), EmbeddingProjector::kNeighbours);
    QCOMPARE(nb->token, task.tgtVocab.token(5));
    QCOMPARE(nb->tokens.value(0), task.tgtVocab.token(nb->neighbours[0].id));
}

AS_TEST_GUILESS_MAIN(TestEmbeddingSpace)
#include "test_embedding_space.moc"
