// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "eval/embedding_space.h"

#include "model/transformer.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace as {

void orientComponents(Eigen::MatrixXd& components, const Eigen::MatrixXd* previous)
{
    const bool aligned = previous && previous->rows() == components.rows()
                         && previous->cols() == components.cols();
    for (Eigen::Index k = 0; k < components.cols(); ++k) {
        auto c = components.col(k);
        double sign = 1;
        if (aligned) {
            sign = c.dot(previous->col(k)) < 0 ? -1 : 1;
        } else {
            Eigen::Index at = 0;
            c.cwiseAbs().maxCoeff(&at);  // the first of equal maxima
            sign = c(at) < 0 ? -1 : 1;
        }
        c *= sign;
    }
}

Pca2 principalComponents(In<float> rows, const Eigen::MatrixXd* previous)
{
    const Eigen::Index n = rows.rows(), d = rows.cols();
    if (n < 1 || d < 2)
        throw std::invalid_argument("principalComponents: needs at least one row of two columns");
    Pca2 p;
    const Eigen::MatrixXd x = rows.cast<double>();
    p.mean = x.colwise().mean();
    const Eigen::MatrixXd centred = x.rowwise() - p.mean;
    // Only the lower triangle is formed (half the work of Xᵀ X); the solver reads only it.
    Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(d, d);
    cov.selfadjointView<Eigen::Lower>().rankUpdate(centred.transpose(), 1.0 / double(n));
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(cov);
    if (solver.info() != Eigen::Success)
        throw std::runtime_error("principalComponents: the eigen solver did not converge");
    // Eigenvalues come in increasing order.
    p.components.resize(d, 2);
    p.components.col(0) = solver.eigenvectors().col(d - 1);
    p.components.col(1) = solver.eigenvectors().col(d - 2);
    // Rounding can leave tiny negative eigenvalues of a singular covariance.
    p.variance = {std::max(0.0, solver.eigenvalues()(d - 1)), std::max(0.0, solver.eigenvalues()(d - 2))};
    p.totalVariance = std::max(0.0, solver.eigenvalues().sum());
    orientComponents(p.components, previous);
    return p;
}

Eigen::MatrixX2d projectRows(In<float> rows, const Pca2& pca)
{
    return (rows.cast<double>().rowwise() - pca.mean) * pca.components;
}

std::vector<Neighbour> nearestByCosine(In<float> rows, int id, int k)
{
    const Eigen::Index n = rows.rows();
    if (id < 0 || id >= n)
        throw std::out_of_range("nearestByCosine: no such row");
    const Eigen::MatrixXd x = rows.cast<double>();
    const Eigen::VectorXd norms = x.rowwise().norm();
    const Eigen::VectorXd dots = x * x.row(id).transpose();
    std::vector<Neighbour> all;
    all.reserve(std::size_t(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        if (i == id)
            continue;
        const double denom = norms(i) * norms(id);
        all.push_back({int(i), denom > 0 ? dots(i) / denom : 0.0});
    }
    const auto closer = [](const Neighbour& a, const Neighbour& b) {
        return a.cosine != b.cosine ? a.cosine > b.cosine : a.id < b.id;
    };
    const std::size_t take = std::min(all.size(), std::size_t(std::max(0, k)));
    std::partial_sort(all.begin(), all.begin() + std::ptrdiff_t(take), all.end(), closer);
    all.resize(take);
    return all;
}

QString embeddingTableName(EmbeddingTable table)
{
    switch (table) {
    case EmbeddingTable::Source: return QStringLiteral("source embedding");
    case EmbeddingTable::Target: return QStringLiteral("target embedding");
    case EmbeddingTable::Generator: return QStringLiteral("generator (output rows)");
    }
    return {};
}

ConstMatMap<float> embeddingRows(const Transformer<float>& model, EmbeddingTable table)
{
    static const char* const names[] = {"src_embed.weight", "tgt_embed.weight", "generator.weight"};
    // A tied table is the shared matrix (core/SPEC.md §6.1).
    const ParamInfo* info = model.params().find(model.config().storedName(names[int(table)]));
    if (!info)
        throw std::logic_error("embeddingRows: the model has no such table");
    return {model.params().values() + info->offset, info->rows(), info->cols()};
}

EmbeddingRecordPtr EmbeddingProjector::project(In<float> rows, const Vocab& vocab,
                                               EmbeddingTable table, long step, int maxShown,
                                               Tie tie)
{
    Eigen::MatrixXd& previous = previous_[std::size_t(table)];
    const Pca2 pca = principalComponents(rows, previous.size() ? &previous : nullptr);
    previous = pca.components;
    auto r = std::make_shared<EmbeddingRecord>();
    r->step = step;
    r->table = table;
    r->tie = tie;
    r->vocabSize = int(rows.rows());
    const int shown = std::min(r->vocabSize, std::max(1, maxShown));
    const Eigen::MatrixX2d xy = projectRows(rows.topRows(shown), pca);
    r->x.assign(xy.col(0).data(), xy.col(0).data() + shown);
    r->y.assign(xy.col(1).data(), xy.col(1).data() + shown);
    for (int i = 0; i < shown; ++i)
        r->tokens << (i < vocab.size() ? vocab.token(i) : QStringLiteral("#%1").arg(i));
    r->explained = pca.explained();
    r->components = pca.components;
    return r;
}

NeighboursRecordPtr EmbeddingProjector::neighbours(In<float> rows, const Vocab& vocab,
                                                   EmbeddingTable table, int id, long step, int k)
{
    auto r = std::make_shared<NeighboursRecord>();
    r->step = step;
    r->table = table;
    r->id = std::clamp(id, 0, int(rows.rows()) - 1);
    const auto name = [&](int i) { return i < vocab.size() ? vocab.token(i) : QStringLiteral("#%1").arg(i); };
    r->token = name(r->id);
    r->neighbours = nearestByCosine(rows, r->id, k);
    for (const Neighbour& nb : r->neighbours)
        r->tokens << name(nb.id);
    return r;
}

void EmbeddingProjector::forget()
{
    for (Eigen::MatrixXd& m : previous_)
        m.resize(0, 0);
}

}  // namespace as
