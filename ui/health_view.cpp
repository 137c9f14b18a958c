// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "health_view.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QRegularExpression>
#include <QHeaderView>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace as::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double log10OrNaN(double v)
{
    return v > 0 && std::isfinite(v) ? std::log10(v) : kNaN;
}

// The columns of a heatmap of records by step: evenly spaced from the first record's step to
// the last's at the densest spacing between two records (at most maxColumns), each showing the
// last record at or before its step. Thinned records (appendThinned) are not exactly evenly
// spaced (nor are the steps they were taken at); this keeps the x axis in steps all the same. Returns (step, record index) per column.
template <class Record>
std::vector<std::pair<long, int>> columnsOf(const std::vector<std::shared_ptr<const Record>>& records,
                                            int maxColumns)
{
    std::vector<std::pair<long, int>> cols;
    if (records.empty())
        return cols;
    const long first = records.front()->step, last = records.back()->step;
    long gap = std::max(1L, last - first);
    for (std::size_t i = 1; i < records.size(); ++i)
        gap = std::min(gap, std::max(1L, records[i]->step - records[i - 1]->step));
    const long n = std::min<long>(maxColumns, (last - first) / gap + 1);
    int at = 0;
    for (long c = 0; c < n; ++c) {
        const long step = n > 1 ? first + std::lround(double(c) * double(last - first) / double(n - 1)) : first;
        while (at + 1 < int(records.size()) && records[std::size_t(at) + 1]->step <= step)
            ++at;
        cols.emplace_back(step, at);
    }
    return cols;
}

// Cells centred on the columns' steps (and on rows 0 … rows−1, or on the given y centres).
void fillMap(Heatmap& h, const std::vector<std::pair<long, int>>& cols, int rows, QCPRange yCentres,
             const std::function<double(int row, int record)>& value)
{
    h.rows = rows;
    h.cols = int(cols.size());
    QCPColorMapData* data = h.map->data();
    if (cols.empty() || rows == 0) {
        data->clear();
        return;
    }
    const QCPRange x = cols.size() > 1 ? QCPRange(double(cols.front().first), double(cols.back().first))
                                       : QCPRange(cols.front().first - 0.5, cols.front().first + 0.5);
    data->setSize(int(cols.size()), rows);
    data->setRange(x, yCentres);
    for (int c = 0; c < int(cols.size()); ++c)
        for (int r = 0; r < rows; ++r)
            data->setCell(c, r, value(r, cols[std::size_t(c)].second));
}

QCPColorGradient transparentNaN(QCPColorGradient g)
{
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

void setLogY(QCustomPlot* plot)
{
    plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    plot->yAxis->setTicker(ticker);
    plot->yAxis->setNumberFormat("eb");
    plot->yAxis->setNumberPrecision(0);
}

}  // namespace

HealthView::HealthView(QWidget* parent) : QWidget(parent)
{
    const QFont base = font();
    list_ = new QListWidget(this);
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    list_->setMinimumWidth(200);
    fault_ = new QLabel(this);
    fault_->setWordWrap(true);
    fault_->setStyleSheet(QStringLiteral("font-weight: bold"));
    showAsAlert(fault_);
    fault_->setVisible(false);
    fault_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    ratioPlot_ = new QCustomPlot(this);
    ratioPlot_->setMinimumSize(260, 160);
    // No ratio (a tensor that was all zeros, as biases are before their first step, or did not
    // move) is grey, not the white of 1e-3.
    QCPColorGradient diverging = divergingGradient();
    diverging.setNanHandling(QCPColorGradient::nhNanColor);
    diverging.setNanColor(QColor(190, 190, 190));
    ratio_ = makeHeatmap(ratioPlot_, true, diverging);
    ratio_.map->setDataRange(QCPRange(kRatioLow, kRatioHigh));
    ratioTitle_ = addTitle(ratioPlot_, QString(), base);
    setHeatmapData(ratio_, 0, 0, {});
    marker_ = ratioPlot_->addGraph(ratioPlot_->xAxis, ratioPlot_->yAxis);
    marker_->setLineStyle(QCPGraph::lsNone);
    marker_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCrossCircle, QPen(Qt::black, 2), QColor(255, 230, 0), 14));
    markerLabel_ = new QCPItemText(ratioPlot_);
    markerLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
    markerLabel_->setPadding(QMargins(4, 2, 4, 2));
    markerLabel_->setBrush(legendBrush(palette(), 230));
    markerLabel_->setPen(QPen(alertColour(palette())));
    markerLabel_->setProperty(kInkProperty, QStringLiteral("alert"));  // its text and frame
    markerLabel_->setClipToAxisRect(false);
    markerLabel_->setVisible(false);
    connect(ratioPlot_, &QCustomPlot::afterLayout, this, [this] { fitGroupLabels(); });
    enableHoverReadout(ratioPlot_, [this](QCustomPlot* plot, QPoint p) {
        if (ratio_.cols == 0 || !plot->axisRect()->rect().contains(p))
            return QString();
        const double x = plot->xAxis->pixelToCoord(p.x());
        const int row = int(std::lround(plot->yAxis->pixelToCoord(p.y())));
        if (row < 0 || row >= ratio_.rows)
            return QString();
        int col = 0;
        for (int c = 0; c < int(columnSteps_.size()); ++c)
            if (std::abs(double(columnSteps_[std::size_t(c)]) - x) < std::abs(double(columnSteps_[std::size_t(col)]) - x))
                col = c;
        // The record's own value: a grey cell may be 0 or not finite.
        const HealthRecord& r = *records_[std::size_t(columnRecords_[std::size_t(col)])];
        const TensorHealth& t = (*r.tensors)[std::size_t(tensorOfRow(row))];
        return tr("%1\nstep %2 · update ratio %3 · gradient norm %4 · weight norm %5")
            .arg(tensorName(tensorOfRow(row)))
            .arg(r.step)
            .arg(t.updateRatio, 0, 'e', 2)
            .arg(t.gradNorm, 0, 'e', 2)
            .arg(t.weightNorm, 0, 'e', 2);
    });

    for (int i = 0; i < 2; ++i) {
        auto* plot = new QCustomPlot(this);
        plot->setMinimumSize(240, 165);
        lineTitles_[i] = addTitle(plot, QString(), base);
        setLogY(plot);
        plot->legend->setVisible(true);
        QFont small = base;
        small.setPointSizeF(base.pointSizeF() * 0.8);
        plot->legend->setFont(small);
        plot->legend->setBrush(legendBrush(palette(), 200));
        plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
        plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
        // One point per step: each curve drawn as one polyline (as the Loss view does); segment
        // by segment, with a dot per point, three curves of 500 steps took 15-45 ms a replot.
        plot->setPlottingHint(QCP::phFastPolylines, true);
        // The step that was skipped because a gradient was not finite.
        faultLines_[i] = new QCPItemStraightLine(plot);
        faultLines_[i]->setPen(QPen(Qt::black, 1.5, Qt::DashLine));
        setSeriesColour(faultLines_[i], kAlertSeries);
        faultLines_[i]->setVisible(false);
        lines_[i] = plot;
    }
    {
        // The rule of thumb (Karpathy): about 1e-3 per step; a decade either side shaded.
        auto* band = new QCPItemRect(lines_[0]);
        for (QCPItemPosition* pos : {band->topLeft, band->bottomRight}) {
            pos->setTypeX(QCPItemPosition::ptAxisRectRatio);
            pos->setTypeY(QCPItemPosition::ptPlotCoords);
        }
        band->topLeft->setCoords(0, 1e-2);
        band->bottomRight->setCoords(1, 1e-4);
        band->setPen(Qt::NoPen);
        band->setBrush(QColor(0, 0, 0, 40));  // a faint band of the rule's colour
        setSeriesColour(band, 2);
        band->setLayer("background");
        auto* rule = new QCPItemStraightLine(lines_[0]);
        for (QCPItemPosition* pos : {rule->point1, rule->point2}) {
            pos->setTypeX(QCPItemPosition::ptAxisRectRatio);
            pos->setTypeY(QCPItemPosition::ptPlotCoords);
        }
        rule->point1->setCoords(0, 1e-3);
        rule->point2->setCoords(1, 1e-3);
        rule->setPen(QPen(Qt::black, 1, Qt::DashLine));
        setSeriesColour(rule, 2);
    }
    for (int i = 0; i < 2; ++i) {
        auto* plot = new QCustomPlot(this);
        plot->setMinimumSize(240, 165);
        hist_[i] = makeHeatmap(plot, true, transparentNaN(sequentialGradient()));
        plot->yAxis->setRangeReversed(false);  // larger magnitudes up
        hist_[i].map->setDataRange(QCPRange(-5, 0));
        histTitles_[i] = addTitle(plot, QString(), base);
        setHeatmapData(hist_[i], 0, 0, {});
        histPlots_[i] = plot;
    }

    auto* left = new QWidget(this);
    auto* lv = new QVBoxLayout(left);
    lv->setContentsMargins(0, 0, 0, 0);
    listLabel_ = new QLabel(left);
    lv->addWidget(listLabel_);
    lv->addWidget(list_, 1);
    // Below the line plots, in a tab beside the histograms (wide enough for its numbers):
    // where a step's time goes.
    bottomTabs_ = new QTabWidget(this);
    {
        auto* box = new QWidget(bottomTabs_);
        auto* bv = new QVBoxLayout(box);
        bv->setContentsMargins(0, 0, 0, 0);
        profileTitle_ = new QLabel(box);
        profileTitle_->setWordWrap(true);
        profileTable_ = new QTableWidget(kProfileCategories + 1, 5, box);
        profileTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
        profileTable_->setSelectionMode(QAbstractItemView::NoSelection);
        profileTable_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 2);
        profileTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        profileTable_->setMinimumSize(200, 120);
        for (int r = 0; r <= kProfileCategories; ++r)
            for (int c = 0; c < 5; ++c) {
                auto* item = new QTableWidgetItem;
                // Numbers right-aligned; the libraries' names read from the left.
                item->setTextAlignment((c == 4 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
                profileTable_->setItem(r, c, item);
            }
        bv->addWidget(profileTitle_);
        bv->addWidget(profileTable_, 1);
        profileBox_ = box;
    }
    auto* right = new QSplitter(Qt::Vertical, this);
    auto* top = new QWidget(right);
    auto* tv = new QVBoxLayout(top);
    tv->setContentsMargins(0, 0, 0, 0);
    tv->addWidget(fault_);
    tv->addWidget(panel(ratioPlot_, [this] {
        QStringList names;
        for (int r = 0; r < ratio_.rows; ++r)
            names << tensorName(tensorOfRow(r));
        return heatmapCsv(ratio_, QStringLiteral("log10 update ratio: tensor \\ column"), names);
    }, top), 1);
    right->addWidget(top);
    auto* middle = new QSplitter(Qt::Horizontal, right);
    for (QCustomPlot* p : lines_)
        middle->addWidget(panel(p, {}, middle));
    right->addWidget(middle);
    auto* bottom = new QSplitter(Qt::Horizontal, bottomTabs_);
    for (int i = 0; i < 2; ++i)
        bottom->addWidget(panel(histPlots_[i], [this, i] {
            return heatmapCsv(hist_[i], QStringLiteral("log10 share: bin \\ column"));
        }, bottom));
    bottomTabs_->addTab(bottom, QString());
    bottomTabs_->addTab(profileBox_, QString());
    right->addWidget(bottomTabs_);
    right->setStretchFactor(0, 5);
    right->setStretchFactor(1, 3);
    right->setStretchFactor(2, 3);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 5);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addWidget(split);

    connect(list_, &QListWidget::itemSelectionChanged, this, [this] {
        redrawLines();
        redrawHistograms();
    });
    connect(list_, &QListWidget::currentRowChanged, this, [this] { redrawHistograms(); });
    retranslate();
}

void HealthView::showTimePerStep(bool shown)
{
    bottomTabs_->setCurrentIndex(shown ? 1 : 0);
}

void HealthView::retranslate()
{
    list_->setToolTip(tr("Tensors in forward order. Select some (Ctrl/Shift+click) for the line "
                         "plots; the current one's histograms are shown below."));
    listLabel_->setText(tr("Tensors (forward order)"));
    bottomTabs_->setTabText(0, tr("Histograms"));
    bottomTabs_->setTabText(1, tr("Time per step"));
    bottomTabs_->setTabToolTip(1, tr("Where a training step's time goes: the products by layer "
                                     "kind, softmax, LayerNorm, dropout, the loss, Adam, waits"));
    ratio_.scale->axis()->setLabel(tr("log10 ‖Δw‖/‖w‖"));
    ratioTitle_->setText(tr("Update ratio per tensor and step · white: the 1e-3 rule of thumb · "
                            "blue: slower · red: faster"));
    ratioPlot_->xAxis->setLabel(tr("step"));
    setHeatmapPlaceholder(ratio_, tr("Train a few steps to see each tensor's update ratio"));
    marker_->setName(tr("first non-finite gradient"));
    const QString lineTitles[2] = {tr("Update ratio ‖Δw‖/‖w‖\n(band: 1e-4 … 1e-2 around 1e-3)"),
                                   tr("Gradient L2 norm (before clipping)")};
    for (int i = 0; i < 2; ++i) {
        lineTitles_[i]->setText(lineTitles[i]);
        lines_[i]->xAxis->setLabel(tr("step"));
        QCustomPlot* plot = histPlots_[i];
        plot->yAxis->setLabel(tr("log10 |x|"));
        plot->xAxis->setLabel(tr("step"));
        hist_[i].scale->axis()->setLabel(tr("log10 share"));
        setHeatmapPlaceholder(hist_[i], tr("The chosen tensor's histograms, at intervals"));
    }
    redrawHistograms();  // their titles
    profileTable_->setHorizontalHeaderLabels(
        {tr("ms/step"), tr("% of step"), tr("GFLOP/s"), tr("wait, ms/step"), tr("Computed by")});
    profileTable_->horizontalHeaderItem(3)->setToolTip(
        tr("Time the training thread waited for the other threads in the parallel regions this "
           "category started (part of \"Waiting for threads\")"));
    profileTable_->horizontalHeaderItem(4)->setToolTip(
        tr("The library that computed the products of this kind, in each pass: the fastest on "
           "this machine when it was measured at first use (or by bench --retune), else "
           "OpenBLAS"));
    redrawProfile();  // its row names and title
    // The texts drawn from the records: the fault line, the marker, the titles.
    if (!records_.empty() || nonFinite_) {
        dirty_ = true;
        if (isVisible())
            redraw();
    }
}

void HealthView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}


void HealthView::reset()
{
    records_.clear();
    histograms_.clear();
    nonFinite_.reset();
    comparedRecords_.clear();
    comparedLayout_.reset();
    comparedName_.clear();
    profile_ = ProfileTotals{};
    redrawProfile();
    dirty_ = true;
    if (isVisible())
        redraw();
}

namespace {
// A library's own name (not translated).
QString libraryName(GemmLibrary library)
{
    return QString::fromLatin1(gemmLibraryTitle(library));
}
}  // namespace

QString HealthView::computedBy(ProfileCategory c, bool brief) const
{
    GemmKind kind;
    switch (c) {
    case ProfileCategory::GemmAttentionProjections: kind = GemmKind::Projections; break;
    case ProfileCategory::GemmFeedForward: kind = GemmKind::FeedForward; break;
    case ProfileCategory::GemmGenerator: kind = GemmKind::Generator; break;
    case ProfileCategory::GemmAttentionScores:
    case ProfileCategory::GemmAttentionContext:
        // Many small products, one per sequence and head (core/model/row_products.h).
        return tr("the engine's own loops");
    default: return {};
    }
    if (profile_.precision == GemmPrecision::BFloat16) {  // every pass in one bfloat16 kernel
        if (profile_.bf16Kernel == Bf16Kernel::Packed) {  // the engine's own: AVX512-BF16's
            if (profile_.bf16Units.isEmpty())
                return brief ? tr("own bfloat16") : tr("the engine's own kernel, bfloat16 inputs and float32 sums "
                                                       "(every pass)");
            return brief ? tr("own bfloat16 · %1").arg(profile_.bf16Units)
                         : tr("the engine's own kernel, bfloat16 inputs and float32 sums in the CPU's %1 units "
                              "(every pass)")
                               .arg(profile_.bf16Units);
        }
        if (profile_.bf16Units.isEmpty())
            return brief ? tr("oneDNN bfloat16") : tr("oneDNN, bfloat16 inputs and float32 sums (every pass)");
        // Which of the CPU's units: AVX512-BF16, or AMX-BF16's tiles.
        return brief ? tr("oneDNN bfloat16 · %1").arg(profile_.bf16Units)
                     : tr("oneDNN, bfloat16 inputs and float32 sums in the CPU's %1 units (every pass)")
                           .arg(profile_.bf16Units);
    }
    const auto libraryOf = [&](int pass) {
        return profile_.gemmLibraries[std::size_t(gemmSite(kind, GemmPass(pass)))];
    };
    if (brief) {
        // The library of most passes, then each pass another computes, by its product:
        // "oneDNN · ∂W: OpenBLAS" (the table stays narrow; the tooltip says it in words).
        const QString symbols[kGemmPasses] = {QStringLiteral("xWᵀ"), QStringLiteral("∂x"),
                                              QStringLiteral("∂W")};
        const GemmLibrary most = libraryOf(1) == libraryOf(2) ? libraryOf(1) : libraryOf(0);
        QString text = libraryName(most);
        for (int p = 0; p < kGemmPasses; ++p)
            if (libraryOf(p) != most)
                text += QStringLiteral(" · %1: %2").arg(symbols[p], libraryName(libraryOf(p)));
        return text;
    }
    const QString passNames[kGemmPasses] = {tr("forward"), tr("input gradient"), tr("weight gradient")};
    // The passes grouped by library, in the passes' order: "oneDNN" when one computes all
    // three, else "oneDNN (forward, input gradient) · OpenBLAS (weight gradient)".
    QStringList groups;
    std::array<bool, kGemmPasses> done{};
    for (int p = 0; p < kGemmPasses; ++p) {
        if (done[std::size_t(p)])
            continue;
        const GemmLibrary library = libraryOf(p);
        QStringList passes;
        for (int q = p; q < kGemmPasses; ++q)
            if (libraryOf(q) == library) {
                done[std::size_t(q)] = true;
                passes << passNames[q];
            }
        groups << (passes.size() == kGemmPasses ? libraryName(library)
                                                : tr("%1 (%2)").arg(libraryName(library),
                                                                    passes.join(tr(", "))));
    }
    return groups.join(QStringLiteral(" · "));
}

QString HealthView::categoryName(ProfileCategory c) const
{
    switch (c) {
    case ProfileCategory::GemmAttentionProjections: return tr("Products: attention Q, K, V, O");
    case ProfileCategory::GemmAttentionScores: return tr("Products: attention scores QKᵀ");
    case ProfileCategory::GemmAttentionContext: return tr("Products: attention weights · V");
    case ProfileCategory::GemmFeedForward: return tr("Products: feed-forward");
    case ProfileCategory::GemmGenerator: return tr("Products: generator");
    case ProfileCategory::AttentionSoftmax: return tr("Attention softmax and masking");
    case ProfileCategory::LayerNorm: return tr("LayerNorm");
    case ProfileCategory::Dropout: return tr("Dropout (and the activation)");
    case ProfileCategory::Embedding: return tr("Embedding and positional encoding");
    case ProfileCategory::Loss: return tr("Loss");
    case ProfileCategory::Adam: return tr("Adam");
    case ProfileCategory::Bias: return tr("Biases and their gradients");
    case ProfileCategory::Gradient: return tr("Gradient: zeroed, its norm, clipping");
    case ProfileCategory::ThreadWait: return tr("Waiting for threads");
    case ProfileCategory::Other: return tr("Other");
    case ProfileCategory::Count: break;
    }
    return {};
}

QString HealthView::profileTitle() const
{
    return profileTitle_->text();
}

void HealthView::redrawProfile()
{
    const ProfileTotals& p = profile_;
    const double steps = double(std::max(1L, p.steps));
    profileTitle_->setText(p.steps == 0 ? tr("Where a step's time goes: train a few steps")
                           : p.precision == GemmPrecision::BFloat16
                               ? tr("Where a step's time goes (the training thread, %n step(s); "
                                    "bfloat16 mixed precision)", nullptr, int(p.steps))
                               : tr("Where a step's time goes (the training thread, %n step(s); "
                                    "float32)", nullptr, int(p.steps)));
    QStringList rows;
    for (int i = 0; i < kProfileCategories; ++i)
        rows << categoryName(ProfileCategory(i));
    rows << tr("Step (wall time)");
    profileTable_->setVerticalHeaderLabels(rows);
    const auto set = [&](int r, int c, const QString& text) { profileTable_->item(r, c)->setText(text); };
    for (int i = 0; i <= kProfileCategories; ++i) {
        const bool step = i == kProfileCategories;
        const double s = step ? p.wallSeconds : p.seconds[std::size_t(i)];
        const bool known = p.steps > 0;
        set(i, 0, known ? QString::number(s * 1e3 / steps, 'f', 2) : QString());
        // The step's row: the share the categories cover.
        const double share = step ? p.coverage() : (p.wallSeconds > 0 ? s / p.wallSeconds : 0.0);
        set(i, 1, known ? QString::number(100.0 * share, 'f', 1) : QString());
        const bool gemm = !step && isGemmCategory(ProfileCategory(i));
        set(i, 2, known && gemm && s > 0
                      ? QString::number(p.flops[std::size_t(i)] / s / 1e9, 'f', 1)
                      : QString());
        // The wait in the regions the category started (they add up to the wait's own row).
        const bool waits = !step && ProfileCategory(i) != ProfileCategory::ThreadWait;
        set(i, 3, known && waits ? QString::number(p.waitSeconds[std::size_t(i)] * 1e3 / steps, 'f', 2)
                                 : QString());
        set(i, 4, known && !step ? computedBy(ProfileCategory(i), true) : QString());
        profileTable_->item(i, 4)->setToolTip(known && !step ? computedBy(ProfileCategory(i), false)
                                                             : QString());
    }
}

void HealthView::setHealthLayout(std::shared_ptr<const HealthLayout> layout)
{
    layout_ = std::move(layout);
    records_.clear();
    histograms_.clear();
    nonFinite_.reset();
    comparedRecords_.clear();
    comparedLayout_.reset();
    comparedName_.clear();
    profile_ = ProfileTotals{};
    redrawProfile();
    rowOf_.clear();
    const QSignalBlocker block(list_);
    list_->clear();
    if (!layout_)
        return;
    rowOf_.assign(layout_->names.size(), -1);
    QString group;
    for (std::size_t r = 0; r < layout_->forward.size(); ++r) {
        const std::size_t t = layout_->forward[r];
        rowOf_[t] = int(r);
        if (layout_->groups[t] != group) {
            group = layout_->groups[t];
            auto* header = new QListWidgetItem(group, list_);
            QFont f = header->font();
            f.setBold(true);
            header->setFont(f);
            header->setFlags(Qt::NoItemFlags);
            header->setForeground(palette().windowText());
            header->setData(Qt::UserRole, -1);
        }
        // Under its layer's heading: the name without the layer's prefix.
        QString shortName = tensorName(int(t));
        static const QRegularExpression layerPrefix(QStringLiteral("^\\w+\\.layers\\.\\d+\\."));
        if (const QRegularExpressionMatch m = layerPrefix.match(shortName); m.hasMatch())
            shortName = shortName.mid(m.capturedEnd());
        auto* item = new QListWidgetItem(QStringLiteral("  ") + shortName, list_);
        item->setData(Qt::UserRole, int(t));
        item->setToolTip(tensorName(int(t)));
    }
    // A first choice across the model: the first tensor, one in the middle, the last.
    const std::size_t n = layout_->forward.size();
    if (n > 0)
        chooseTensors({int(layout_->forward[0]), int(layout_->forward[n / 2]), int(layout_->forward[n - 1])});
}

void HealthView::chooseTensors(const std::vector<int>& tensors)
{
    {
        const QSignalBlocker block(list_);
        list_->clearSelection();
        bool first = true;
        for (int i = 0; i < list_->count(); ++i) {
            QListWidgetItem* item = list_->item(i);
            const int t = item->data(Qt::UserRole).toInt();
            if (t >= 0 && std::find(tensors.begin(), tensors.end(), t) != tensors.end()) {
                if (first)
                    list_->setCurrentItem(item, QItemSelectionModel::NoUpdate);
                first = false;
                item->setSelected(true);
            }
        }
    }
    redrawLines();
    redrawHistograms();
}

std::vector<int> HealthView::chosenTensors() const
{
    std::vector<int> out;
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->isSelected() && list_->item(i)->data(Qt::UserRole).toInt() >= 0)
            out.push_back(list_->item(i)->data(Qt::UserRole).toInt());
    return out;
}

int HealthView::histogramTensor() const
{
    if (QListWidgetItem* item = list_->currentItem(); item && item->data(Qt::UserRole).toInt() >= 0)
        return item->data(Qt::UserRole).toInt();
    const std::vector<int> chosen = chosenTensors();
    return chosen.empty() ? -1 : chosen.front();
}

void HealthView::applySnapshot(const TrainingSnapshot& s)
{
    const HealthUpdate& h = s.health;
    bool changed = false;
    if (h.layout != layout_) {
        setHealthLayout(h.layout);
        changed = true;
    }
    for (const auto& r : h.records)
        appendThinned(records_, r, kRecordCapacity);
    for (const auto& r : h.histograms)
        appendThinned(histograms_, r, kHistogramCapacity);
    if (h.nonFinite)
        nonFinite_ = h.nonFinite;
    if (h.profile) {
        profile_ += *h.profile;
        redrawProfile();  // a small table: drawn at once, shown or not
    }
    changed = changed || !h.records.empty() || !h.histograms.empty() || h.nonFinite;
    if (const ComparisonUpdate* c = s.comparison.get()) {
        if (c->replacesHistory && !comparedRecords_.empty()) {
            comparedRecords_.clear();
            changed = true;
        }
        comparedLayout_ = c->healthLayout;
        comparedName_ = c->name;
        for (const auto& r : c->health)
            appendThinned(comparedRecords_, r, kRecordCapacity);
        changed = changed || !c->health.empty();
    } else if (!comparedRecords_.empty() || comparedLayout_) {
        comparedRecords_.clear();
        comparedLayout_.reset();
        comparedName_.clear();
        changed = true;
    }
    if (!changed)
        return;
    dirty_ = true;
    if (isVisible())
        redraw();
}

void HealthView::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (dirty_)
        redraw();
}

void HealthView::redrawNow()
{
    redraw();
}

void HealthView::redraw()
{
    dirty_ = false;
    redrawRatioMap();
    redrawLines();
    redrawHistograms();
}

QString HealthView::tensorName(int tensor) const
{
    if (!layout_ || tensor < 0 || tensor >= int(layout_->names.size()))
        return {};
    return QString::fromStdString(layout_->names[std::size_t(tensor)]);
}

int HealthView::rowOfTensor(int tensor) const
{
    return tensor >= 0 && tensor < int(rowOf_.size()) ? rowOf_[std::size_t(tensor)] : -1;
}

int HealthView::tensorOfRow(int row) const
{
    return layout_ && row >= 0 && row < int(layout_->forward.size()) ? int(layout_->forward[std::size_t(row)]) : -1;
}

long HealthView::stepOfColumn(int col) const
{
    return col >= 0 && col < int(columnSteps_.size()) ? columnSteps_[std::size_t(col)] : -1;
}

QString HealthView::faultText() const
{
    return fault_->isHidden() ? QString() : fault_->text();
}

bool HealthView::nonFiniteMarker(double* step, double* row) const
{
    if (marker_->data()->isEmpty())
        return false;
    *step = marker_->data()->at(0)->key;
    *row = marker_->data()->at(0)->value;
    return true;
}

void HealthView::redrawRatioMap()
{
    QCustomPlot* plot = ratioPlot_;
    for (QCPAbstractItem* item : separators_)
        plot->removeItem(item);
    separators_.clear();
    marker_->data()->clear();
    markerLabel_->setVisible(false);
    const int rows = layout_ ? int(layout_->forward.size()) : 0;
    const auto cols = columnsOf(records_, kMaxColumns);
    columnSteps_.clear();
    columnRecords_.clear();
    for (const auto& c : cols) {
        columnSteps_.push_back(c.first);
        columnRecords_.push_back(c.second);
    }
    if (cols.empty() || rows == 0) {
        setHeatmapData(ratio_, 0, 0, {});
    } else {
        ratio_.scale->setVisible(true);
        ratio_.placeholder->setVisible(false);
        fillMap(ratio_, cols, rows, rows > 1 ? QCPRange(0, rows - 1) : QCPRange(-0.5, 0.5), [&](int r, int i) {
            const auto& t = *records_[std::size_t(i)]->tensors;
            return log10OrNaN(t[layout_->forward[std::size_t(r)]].updateRatio);
        });
        ratio_.map->setDataRange(QCPRange(kRatioLow, kRatioHigh));
        // Layers: their names at the middle of their rows (fitGroupLabels), a line between two.
        groupTicks_.clear();
        int from = 0;
        for (int r = 1; r <= rows; ++r) {
            const QString& g = layout_->groups[layout_->forward[std::size_t(from)]];
            if (r < rows && layout_->groups[layout_->forward[std::size_t(r)]] == g)
                continue;
            groupTicks_.push_back({0.5 * (from + r - 1), r - from, g});
            if (r < rows) {
                auto* line = new QCPItemStraightLine(plot);
                line->point1->setCoords(0, r - 0.5);
                line->point2->setCoords(1, r - 0.5);
                line->setPen(QPen(palette().color(QPalette::Mid), 1));
                separators_.push_back(line);
            }
            from = r;
        }
        fittedGroups_.clear();
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
        fitGroupLabels();
        plot->yAxis->setSubTicks(false);
        plot->yAxis->setTickLength(0, 3);
        plot->yAxis->setRange(-0.5, rows - 0.5);
        const double half = cols.size() > 1 ? 0.5 * double(cols.back().first - cols.front().first) / double(cols.size() - 1) : 0.5;
        double hi = double(cols.back().first) + half;
        if (nonFinite_)
            hi = std::max(hi, double(nonFinite_->step) + half);
        plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->xAxis->setRange(double(cols.front().first) - half, hi);
    }
    if (nonFinite_) {
        const int row = rowOfTensor(nonFinite_->tensor);
        const QString where = row >= 0 ? tr("first non-finite gradient: %1 at step %2").arg(tensorName(nonFinite_->tensor)).arg(nonFinite_->step)
                                       : tr("step %1: the loss is not finite").arg(nonFinite_->step);
        fault_->setText(where + QStringLiteral(" — ") + nonFinite_->fault);
        fault_->setVisible(true);
        if (row >= 0) {
            marker_->addData(double(nonFinite_->step), double(row));
            markerLabel_->position->setCoords(double(nonFinite_->step), double(row));
            markerLabel_->setText(tr("%1 · step %2  ").arg(tensorName(nonFinite_->tensor)).arg(nonFinite_->step));
            markerLabel_->setVisible(true);
            if (rows == 0) {
                plot->xAxis->setRange(nonFinite_->step - 1.0, nonFinite_->step + 1.0);
            }
        }
    } else {
        fault_->setVisible(false);
    }
    replotIfVisible(plot);
}

void HealthView::fitGroupLabels()
{
    auto ticker = ratioPlot_->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker || groupTicks_.empty())
        return;
    // The labels that fit the axis's height without overlapping, larger layers first: small
    // groups (a final norm, an embedding) give way when rows are thin.
    const double rowPx = double(ratioPlot_->axisRect()->height()) / double(std::max(1, ratio_.rows));
    const double need = QFontMetrics(ratioPlot_->yAxis->tickLabelFont()).height();
    std::vector<std::size_t> order(groupTicks_.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return groupTicks_[a].rows > groupTicks_[b].rows; });
    std::vector<std::size_t> kept;
    for (std::size_t i : order) {
        const bool fits = std::all_of(kept.begin(), kept.end(), [&](std::size_t k) {
            return std::abs(groupTicks_[k].centre - groupTicks_[i].centre) * rowPx >= need;
        });
        if (fits)
            kept.push_back(i);
    }
    std::sort(kept.begin(), kept.end());
    if (kept == fittedGroups_)
        return;
    fittedGroups_ = kept;
    ticker->clear();
    for (std::size_t i : kept)
        ticker->addTick(groupTicks_[i].centre, groupTicks_[i].label);
}

void HealthView::redrawLines()
{
    const std::vector<int> chosen = chosenTensors();
    for (int k = 0; k < 2; ++k) {
        QCustomPlot* plot = lines_[k];
        plot->clearGraphs();
        // A tensor's line over `records` (its index there `t`), in the tensor's colour; B's
        // dashed, out of the legend (one entry says what dashed means).
        const auto addLine = [&](const std::vector<std::shared_ptr<const HealthRecord>>& records, std::size_t t,
                                 const QString& name, int colour, bool dashed) {
            QCPGraph* g = plot->addGraph();
            g->setName(name);
            g->setPen(QPen(Qt::black, 1.5));
            setSeriesColour(g, colour);
            if (dashed) {
                QPen pen = g->pen();
                pen.setStyle(Qt::DashLine);
                g->setPen(pen);
                g->removeFromLegend();
            }
            QVector<double> x, y;
            x.reserve(int(records.size()));
            y.reserve(int(records.size()));
            for (const auto& r : records) {
                const TensorHealth& h = (*r->tensors)[t];
                const double v = k == 0 ? h.updateRatio : h.gradNorm;
                if (v > 0 && std::isfinite(v)) {
                    x << double(r->step);
                    y << v;
                }
            }
            // A lone step has no line to draw: a dot shows it.
            g->setScatterStyle(x.size() == 1 ? QCPScatterStyle(QCPScatterStyle::ssDisc, 5) : QCPScatterStyle());
            g->setData(x, y, true);
        };
        int colour = 0;
        bool bDrawn = false;
        for (int t : chosen) {
            const QString name = tensorName(t);
            addLine(records_, std::size_t(t), name, colour, false);
            // B's tensor of the same name, where B has one (B may change the model's shape).
            if (comparedLayout_ && !comparedRecords_.empty()) {
                const auto& names = comparedLayout_->names;
                const auto found = std::find(names.begin(), names.end(), name.toStdString());
                if (found != names.end()) {
                    addLine(comparedRecords_, std::size_t(found - names.begin()),
                            tr("%1 (%2)").arg(name, comparedName_), colour, true);
                    bDrawn = true;
                }
            }
            ++colour;
        }
        if (bDrawn) {  // the legend's key to B: a dashed line in the text's colour, no data
            QCPGraph* key = plot->addGraph();
            key->setName(tr("dashed: %1").arg(comparedName_));
            key->setPen(QPen(palette().color(QPalette::WindowText), 1.5, Qt::DashLine));
        }
        faultLines_[k]->setVisible(bool(nonFinite_));
        if (nonFinite_) {
            faultLines_[k]->point1->setCoords(double(nonFinite_->step), 1);
            faultLines_[k]->point2->setCoords(double(nonFinite_->step), 2);
        }
        plot->legend->setVisible(!chosen.empty());
        bool found = false;
        QCPRange y = plot->graphCount() ? plot->graph(0)->getValueRange(found, QCP::sdBoth) : QCPRange();
        for (int i = 1; i < plot->graphCount(); ++i) {
            bool f = false;
            const QCPRange r = plot->graph(i)->getValueRange(f, QCP::sdBoth);
            if (f)
                y = found ? QCPRange(std::min(y.lower, r.lower), std::max(y.upper, r.upper)) : r;
            found = found || f;
        }
        if (k == 0)  // the band is always in view
            y = found ? QCPRange(std::min(y.lower, 1e-4), std::max(y.upper, 1e-2)) : QCPRange(1e-4, 1e-2);
        else if (!found)
            y = QCPRange(1e-3, 1);
        plot->yAxis->setRange(y.lower / 2, y.upper * 2);
        if (!records_.empty()) {
            double hi = std::max(double(records_.back()->step), nonFinite_ ? double(nonFinite_->step) : 0.0);
            if (!comparedRecords_.empty())
                hi = std::max(hi, double(comparedRecords_.back()->step));
            plot->xAxis->setRange(double(records_.front()->step), std::max(hi, double(records_.front()->step) + 1));
        }
        replotIfVisible(plot);
    }
}

void HealthView::redrawHistograms()
{
    const int t = histogramTensor();
    const auto cols = columnsOf(histograms_, kMaxColumns);
    for (int k = 0; k < 2; ++k) {
        Heatmap& h = hist_[k];
        QCustomPlot* plot = h.map->parentPlot();
        const QString what = k == 0 ? tr("Weights") : tr("Gradients");
        histTitles_[k]->setText(t >= 0 ? tr("%1 of %2\nhistogram per step").arg(what, tensorName(t)) : what);
        if (t < 0 || cols.empty()) {
            setHeatmapData(h, 0, 0, {});
            replotIfVisible(plot);
            continue;
        }
        h.scale->setVisible(true);
        h.placeholder->setVisible(false);
        const double w = 1.0 / kHistogramBinsPerDecade;
        fillMap(h, cols, kHistogramBins,
                QCPRange(histogramBinEdge(0) + w / 2, histogramBinEdge(kHistogramBins) - w / 2),
                [&](int bin, int i) {
                    const HistogramRecord& r = *histograms_[std::size_t(i)];
                    const std::uint32_t* counts = k == 0 ? r.weightCounts(t) : r.gradCounts(t);
                    double total = k == 0 ? r.weightsNonFinite[std::size_t(t)] : r.gradsNonFinite[std::size_t(t)];
                    for (int b = 0; b < kHistogramBins; ++b)
                        total += counts[b];
                    return total > 0 ? log10OrNaN(counts[bin] / total) : kNaN;
                });
        h.map->setDataRange(QCPRange(-5, 0));
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->yAxis->setRange(histogramBinEdge(0), histogramBinEdge(kHistogramBins));
        const double half = cols.size() > 1 ? 0.5 * double(cols.back().first - cols.front().first) / double(cols.size() - 1) : 0.5;
        plot->xAxis->setRange(double(cols.front().first) - half, double(cols.back().first) + half);
        replotIfVisible(plot);
    }
}

}  // namespace as::ui
