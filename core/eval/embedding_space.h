// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The embedding space of a trained model (issue 18, section 4): a table's token vectors
// projected on their first two principal components, with the components' signs kept from
// one projection to the next so that a cloud redrawn as training goes does not flip, and the
// nearest neighbours of a token by cosine similarity.
#include "model/config.h"
#include "model/tensor.h"
#include "text/vocab.h"

#include <Eigen/Core>
#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <vector>

namespace as {

template <typename T>
class Transformer;

// The first two principal components of a matrix's rows.
struct Pca2 {
    Eigen::RowVectorXd mean;        // [d], of the rows
    Eigen::MatrixXd components;     // [d, 2], unit columns: PC1, PC2
    Eigen::Vector2d variance{0, 0}; // along each component (covariance eigenvalues, 1/n)
    double totalVariance = 0;       // trace of the covariance
    // Share of the total variance along each component, 0…1 (0 when the rows are all equal).
    Eigen::Vector2d explained() const
    {
        return totalVariance > 0 ? Eigen::Vector2d(variance / totalVariance) : Eigen::Vector2d(0, 0);
    }
};

// rows: [n, d], n ≥ 1, d ≥ 2. Centres the rows, forms the covariance (1/n, in double) and takes
// its two largest eigenvectors (SelfAdjointEigenSolver). Their signs follow orientComponents.
// previous: the components of the last projection of the same table ([d, 2]), or null.
Pca2 principalComponents(In<float> rows, const Eigen::MatrixXd* previous = nullptr);

// An eigenvector's sign is arbitrary: the solver may return −v for the same v from one call to
// the next. Each column of `components` is flipped when its dot product with the same column of
// `previous` is negative; without a previous of the same shape, its largest-|loading| entry
// (the first such) is made positive.
void orientComponents(Eigen::MatrixXd& components, const Eigen::MatrixXd* previous);

// Coordinates of rows on the components: (row − mean) · components -> [n, 2].
Eigen::MatrixX2d projectRows(In<float> rows, const Pca2& pca);

struct Neighbour {
    int id = 0;
    double cosine = 0;
};
// The k rows most similar to row `id` by cosine similarity (in double), most similar first,
// ties by smaller id; row `id` itself left out. A zero row has cosine 0 with every row.
std::vector<Neighbour> nearestByCosine(In<float> rows, int id, int k);

// The three tables of token vectors. The generator is not tied to the target embedding
// (core/SPEC.md §2.6, §6.1: generator.weight [V_tgt, d] is a parameter of its own): its rows
// are the output vectors whose dot product with the decoder's state gives each target
// token's logit.
enum class EmbeddingTable { Source = 0, Target = 1, Generator = 2 };
QString embeddingTableName(EmbeddingTable table);
// The table's matrix in the model's parameters: [vocab, d_model].
ConstMatMap<float> embeddingRows(const Transformer<float>& model, EmbeddingTable table);

// One projection of one table, as the Embeddings view draws it.
struct EmbeddingRecord {
    long step = 0;
    EmbeddingTable table = EmbeddingTable::Source;
    int vocabSize = 0;        // rows of the table; the principal components are of all of them
    // The points: ids 0 … shown−1, the vocabulary's most frequent tokens (core/SPEC.md §1.2: ids
    // are in frequency order after the four specials); shown < vocabSize when the table is large.
    std::vector<double> x, y;
    QStringList tokens;       // of the points
    Eigen::Vector2d explained{0, 0};  // share of the variance along PC1, PC2 (0…1)
    Eigen::MatrixXd components;       // [d, 2], as oriented
    Tie tie = Tie::None;  // the model's weight tying: tied tables are one matrix (core/SPEC.md §2.6)
};
using EmbeddingRecordPtr = std::shared_ptr<const EmbeddingRecord>;

// The answer to a click: a token's nearest neighbours in one table.
struct NeighboursRecord {
    long step = 0;
    EmbeddingTable table = EmbeddingTable::Source;
    int id = 0;
    QString token;
    std::vector<Neighbour> neighbours;
    QStringList tokens;  // of the neighbours
};
using NeighboursRecordPtr = std::shared_ptr<const NeighboursRecord>;

// Makes the records of a session's tables and keeps, per table, the last components, so that
// each projection is oriented as the one before (forget() when the model is replaced).
class EmbeddingProjector {
public:
    static constexpr int kMaxShown = 2000;  // points drawn of a larger vocabulary
    static constexpr int kNeighbours = 10;

    // tie: the model's weight tying, recorded for the view (EmbeddingRecord::tie).
    EmbeddingRecordPtr project(In<float> rows, const Vocab& vocab, EmbeddingTable table, long step,
                               int maxShown = kMaxShown, Tie tie = Tie::None);
    static NeighboursRecordPtr neighbours(In<float> rows, const Vocab& vocab, EmbeddingTable table,
                                          int id, long step, int k = kNeighbours);
    void forget();

private:
    std::array<Eigen::MatrixXd, 3> previous_;
};

}  // namespace as
