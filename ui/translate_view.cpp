#include "translate_view.h"

#include "decode/decode.h"
#include "text/tokenizer.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMetaMethod>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace as::ui {

struct TranslateView::Request {
    long id = 0;
    QString text;
    QString notice;  // e.g. the input was cut
    bool beam = false;
    int k = 1, nbest = 1;
};

struct TranslateView::Result {
    long id = 0;
    ModelCopyPtr copy;
    QString notice, error;
    bool beam = false;
    int k = 1;
    QStringList srcTokens, unknown;
    int unknownCount = 0;
    DecodeResult decoded;
    QStringList outputSteps;  // the token of every output step: y1 … yn, then </s> if finished
    std::vector<QList<QPair<QString, double>>> topFive;  // per output step
    double milliseconds = 0;
};

namespace {

QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"'))
        && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

// The five likeliest next tokens after every position of a teacher-forced pass over the output.
// <pad> and <s> are left out: the decoder never emits them.
std::vector<QList<QPair<QString, double>>> topFiveOf(Transformer<float>& model, const Vocab& tgt,
                                                     const std::vector<int>& src,
                                                     const Hypothesis& best)
{
    std::vector<int> tgtIn{Vocab::kBos};
    tgtIn.insert(tgtIn.end(), best.tokens.begin(), best.tokens.end());
    if (!best.finished)  // the last token was not followed by a prediction that was kept
        tgtIn.pop_back();
    std::vector<QList<QPair<QString, double>>> out;
    if (tgtIn.empty())
        return out;
    const int S = int(src.size()), T = int(tgtIn.size());
    model.encode(src.data(), 1, S, Pass::eval());
    model.decode(tgtIn.data(), 1, T, model.memory(), model.sourceValid().data(), S, Pass::eval());
    Mat<float> logp;  // [T, V_tgt]
    model.allLogProbs(logp);
    std::vector<int> ids;
    for (int t = 0; t < T; ++t) {
        ids.clear();
        for (int i = 0; i < int(logp.cols()); ++i)
            if (i != Vocab::kPad && i != Vocab::kBos)
                ids.push_back(i);
        const int n = std::min<int>(5, int(ids.size()));
        std::partial_sort(ids.begin(), ids.begin() + n, ids.end(),
                          [&](int a, int b) { return logp(t, a) > logp(t, b); });
        QList<QPair<QString, double>> row;
        for (int i = 0; i < n; ++i)
            row.push_back({tgt.token(ids[i]), std::exp(double(logp(t, ids[i])))});
        out.push_back(row);
    }
    return out;
}

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(align);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QTableWidget* makeTable(const QStringList& headers, QWidget* parent)
{
    auto* t = new QTableWidget(0, int(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->setVisible(false);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(false);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    return t;
}

QFont pointFont(int size, bool bold = false)
{
    QFont f;
    f.setPointSize(size);
    f.setBold(bold);
    return f;
}

}  // namespace

TranslateView::TranslateView(QWidget* parent) : QWidget(parent)
{
    pool_.setMaxThreadCount(2);
    results_ = new Mailbox(this);

    input_ = new QLineEdit(this);
    input_->setPlaceholderText(tr("Type a sentence in the source language, e.g. 我有一个好朋友"));
    input_->setClearButtonEnabled(true);
    input_->setFont(pointFont(12));
    go_ = new QPushButton(tr("Translate"), this);
    go_->setDefault(true);
    auto* top = new QHBoxLayout;
    top->addWidget(input_, 1);
    top->addWidget(go_);

    method_ = new QComboBox(this);
    method_->addItem(tr("Greedy"));
    method_->addItem(tr("Beam search"));
    beam_ = new QSpinBox(this);
    beam_->setRange(1, 16);
    beam_->setValue(4);
    beam_->setToolTip(tr("Beam width k (k = 1 gives the greedy output)"));
    nbest_ = new QSpinBox(this);
    nbest_->setRange(1, 16);
    nbest_->setValue(4);
    nbest_->setToolTip(tr("How many hypotheses of the beam to list (at most k)"));
    auto* options = new QHBoxLayout;
    options->addWidget(new QLabel(tr("Decoding:"), this));
    options->addWidget(method_);
    options->addSpacing(12);
    options->addWidget(new QLabel(tr("beam width k:"), this));
    options->addWidget(beam_);
    options->addWidget(new QLabel(tr("n-best:"), this));
    options->addWidget(nbest_);
    options->addStretch(1);
    auto syncOptions = [this] {
        const bool beam = method_->currentIndex() == 1;
        beam_->setEnabled(beam);
        nbest_->setEnabled(beam);
        nbest_->setMaximum(beam_->value());
    };
    connect(method_, &QComboBox::currentIndexChanged, this, syncOptions);
    connect(beam_, &QSpinBox::valueChanged, this, syncOptions);
    syncOptions();

    chips_ = new QLabel(this);
    chips_->setTextFormat(Qt::RichText);
    chips_->setWordWrap(true);
    chips_->setFont(pointFont(11));
    status_ = new QLabel(this);
    status_->setTextFormat(Qt::RichText);  // warnings in red; tokens are escaped
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    output_ = new QLabel(this);
    output_->setFont(pointFont(15, true));
    output_->setWordWrap(true);
    output_->setTextFormat(Qt::PlainText);  // an output may contain <unk>
    output_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    output_->setMinimumHeight(output_->fontMetrics().height() + 8);
    output_->setStyleSheet(QStringLiteral("QLabel { color: #08306b; }"));

    nbestTable_ = makeTable({tr("#"), tr("translation"), tr("score"), tr("log p"), tr("ends")}, this);
    nbestTable_->setObjectName(QStringLiteral("nbestList"));
    // The translation takes the width the rank, scores and end leave: those are as wide as
    // their contents (else each keeps the default 100 px, and the translation is squeezed to
    // a few letters in a narrow window).
    nbestTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    nbestTable_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    nbestTable_->setToolTip(tr("score = log p / ((5 + length) / 6)^0.6; "
                               "ends: the hypothesis ended with </s>"));
    topTable_ = makeTable({tr("step"), tr("next token"), tr("p")}, this);
    topTable_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    topTable_->setWordWrap(false);
    topTable_->setToolTip(tr("The five likeliest next tokens at every output step (teacher-forced "
                             "on the best output); the emitted token is in bold"));

    crossLayer_ = new QComboBox(this);
    crossLayer_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    crossLayer_->setToolTip(tr("Decoder layer of the cross-attention"));
    crossHead_ = new QComboBox(this);
    crossHead_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    crossHead_->setToolTip(tr("One head, or the mean over the heads"));
    crossPlot_ = new QCustomPlot(this);
    crossPlot_->setObjectName(QStringLiteral("crossAttention"));
    crossPlot_->setMinimumSize(320, 260);
    crossHeat_ = makeHeatmap(crossPlot_, true, sequentialGradient());
    crossHeat_.scale->axis()->setLabel(tr("attention weight"));
    crossHeat_.scale->setBarWidth(12);
    setHeatmapPlaceholder(crossHeat_, tr("Translate a sentence\nto see its cross-attention"));
    crossPlot_->xAxis->setLabel(tr("source token (key)"));
    crossPlot_->yAxis->setLabel(tr("output token (query)"));
    for (QCPAxis* a : {crossPlot_->xAxis, crossPlot_->yAxis}) {
        a->setTickLabelFont(pointFont(10));
        a->setLabelFont(pointFont(10));
        a->setTickLength(0, 3);
        a->setSubTickLength(0, 0);
    }
    enableHoverReadout(crossPlot_, [this](QCustomPlot*, QPoint p) {
        int r = 0, c = 0;
        if (!last_)
            return QString();
        auto unknown = [this](const QString& src) {
            return !last_->copy->srcVocab.contains(src) ? tr(" (unknown: read as <unk>)") : QString();
        };
        if (!heatmapCellAt(crossHeat_, p, &r, &c)) {
            // Over the tick labels, which show only every k-th token when the tokens are many.
            if (!heatmapAxisTokenAt(crossHeat_, p, &r, &c))
                return QString();
            if (r >= 0)
                return tr("output %1 (step %2)").arg(last_->outputSteps.value(r)).arg(r + 1);
            const QString src = last_->srcTokens.value(c);
            return tr("source %1: %2%3").arg(c + 1).arg(src, unknown(src));
        }
        const QString src = last_->srcTokens.value(c);
        return tr("output %1 (step %2) → source %3%4\nweight %5")
            .arg(last_->outputSteps.value(r))
            .arg(r + 1)
            .arg(src, unknown(src))
            .arg(crossHeat_.map->data()->cell(c, r), 0, 'f', 3);
    });
    auto* crossExport = makeExportButton(crossPlot_, [this] { return crossCsv(); }, this);
    auto* crossBar = new QHBoxLayout;
    crossBar->addWidget(new QLabel(tr("Cross-attention of the best output:"), this));
    crossBar->addStretch(1);
    crossBar->addWidget(crossLayer_);
    crossBar->addWidget(crossHead_);
    crossBar->addWidget(crossExport);
    auto* crossBox = new QWidget(this);
    auto* crossLayout = new QVBoxLayout(crossBox);
    crossLayout->setContentsMargins(0, 0, 0, 0);
    crossLayout->addLayout(crossBar);
    crossLayout->addWidget(crossPlot_, 1);

    auto* tables = new QSplitter(Qt::Vertical, this);
    auto labelled = [this](const QString& title, QWidget* w) {
        auto* box = new QWidget(this);
        auto* l = new QVBoxLayout(box);
        l->setContentsMargins(0, 0, 0, 0);
        l->addWidget(new QLabel(title, box));
        l->addWidget(w, 1);
        return box;
    };
    tables->addWidget(labelled(tr("n-best list"), nbestTable_));
    tables->addWidget(labelled(tr("Top-5 next tokens per step"), topTable_));
    tables->setStretchFactor(0, 1);
    tables->setStretchFactor(1, 2);
    auto* body = new QSplitter(Qt::Horizontal, this);
    body->addWidget(tables);
    body->addWidget(crossBox);
    body->setStretchFactor(0, 1);
    body->setStretchFactor(1, 1);
    body->setSizes({520, 640});

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(options);
    layout->addWidget(chips_);
    layout->addWidget(status_);
    layout->addWidget(output_);
    layout->addWidget(body, 1);

    modelWait_ = new QTimer(this);
    modelWait_->setSingleShot(true);
    modelWait_->setInterval(kModelWaitMs);
    connect(modelWait_, &QTimer::timeout, this, [this] {
        // Nobody answered modelWanted(): translate with the weights held, if any.
        waitingForModel_ = false;
        startPending();
    });
    connect(go_, &QPushButton::clicked, this, &TranslateView::onTranslateClicked);
    connect(input_, &QLineEdit::returnPressed, this, &TranslateView::onTranslateClicked);
    connect(crossLayer_, &QComboBox::currentIndexChanged, this, [this] { drawCross(); });
    connect(crossHead_, &QComboBox::currentIndexChanged, this, [this] { drawCross(); });
    drawCross();  // empty: the placeholder, no colour scale
    setMessage(tr("Type a sentence and press Enter. Translation uses a copy of the current "
                  "weights, so training goes on meanwhile."),
               false);
}

TranslateView::~TranslateView()
{
    pool_.waitForDone();
}

void TranslateView::setMessage(const QString& text, bool warning)
{
    setMessage(QStringList{text}, warning ? QStringList{text} : QStringList{});
}

void TranslateView::setMessage(const QStringList& info, const QStringList& warnings)
{
    QStringList html;
    for (const QString& line : info)
        html << (warnings.contains(line)
                     ? QStringLiteral("<span style=\"color:#b2182b;\">%1</span>")
                           .arg(line.toHtmlEscaped())
                     : line.toHtmlEscaped());
    status_->setText(html.join(QStringLiteral("<br>")));
    message_ = info.join(QLatin1Char('\n'));
}

void TranslateView::setDecoding(bool beam, int k, int nbest)
{
    method_->setCurrentIndex(beam ? 1 : 0);
    beam_->setValue(k);
    nbest_->setValue(nbest);
}

void TranslateView::translate(const QString& text)
{
    input_->setText(text);
    onTranslateClicked();
}

void TranslateView::onTranslateClicked()
{
    QString text = input_->text();
    if (text.trimmed().isEmpty()) {
        setMessage(tr("Nothing to translate: type a sentence first."), true);
        return;
    }
    auto request = std::make_shared<Request>();
    if (text.size() > kMaxInputChars) {
        int cut = kMaxInputChars;
        if (text.at(cut - 1).isHighSurrogate())  // never split a surrogate pair
            --cut;
        text.truncate(cut);
        request->notice = tr("The input was longer than %1 characters; only the first %1 are "
                             "translated.")
                              .arg(kMaxInputChars);
    }
    request->id = ++requestId_;
    request->text = text;
    request->beam = method_->currentIndex() == 1;
    request->k = request->beam ? beam_->value() : 1;
    request->nbest = request->beam ? std::min(nbest_->value(), beam_->value()) : 1;
    pending_ = request;
    if (isSignalConnected(QMetaMethod::fromSignal(&TranslateView::modelWanted))) {
        waitingForModel_ = true;
        setMessage(tr("Copying the current weights…"), false);
        modelWait_->start();
        emit modelWanted();  // setModel() may answer right here or later
    } else {
        startPending();
    }
}

void TranslateView::setModel(ModelCopyPtr model)
{
    if (model && !model->model)
        model.reset();
    model_ = std::move(model);
    if (waitingForModel_) {
        waitingForModel_ = false;
        modelWait_->stop();
        startPending();
    }
}

void TranslateView::startPending()
{
    if (!pending_ || waitingForModel_)
        return;
    if (!model_) {
        pending_.reset();
        setMessage(tr("No model yet: start training or open a model, then translate."), true);
        return;
    }
    if (std::find(busy_.begin(), busy_.end(), model_.get()) != busy_.end()) {
        // One decode per copy: this one starts when the copy is free (see onResult).
        setMessage(tr("Waiting for the previous translation to finish…"), false);
        return;
    }
    runOn(model_);
}

void TranslateView::runOn(ModelCopyPtr copy)
{
    const std::shared_ptr<Request> request = std::move(pending_);
    pending_.reset();
    auto result = std::make_shared<Result>();
    result->id = request->id;
    result->copy = copy;
    result->notice = request->notice;
    result->beam = request->beam;
    result->k = request->k;
    result->srcTokens = tokenize(copy->srcTokenizer, request->text);
    if (result->srcTokens.isEmpty()) {
        setMessage(tr("Nothing to translate: the input has no tokens."), true);
        return;
    }
    const std::vector<int> src = copy->srcVocab.encode(result->srcTokens, &result->unknownCount);
    for (const QString& t : result->srcTokens)
        if (!copy->srcVocab.contains(t) && !result->unknown.contains(t))
            result->unknown.push_back(t);

    busy_.push_back(copy.get());
    ++running_;
    setMessage(tr("Translating with the weights of step %1…").arg(copy->step), false);
    DecodeOptions options;
    options.beam = request->k;
    options.nbest = request->nbest;
    // QThreadPool wakes an idle thread through a lock inside Qt, which TSan cannot see: the
    // annotations order building this closure before running it.
    static char handOff;
    std::function<void()> job = [this, result, src, options] {
        AS_TSAN_ACQUIRE(&handOff);
        QElapsedTimer clock;
        clock.start();
        try {
            Transformer<float>& model = *result->copy->model;
            result->decoded = result->beam ? beamSearch(model, src, options)
                                           : greedyDecode(model, src);
            if (result->decoded.nbest.empty())
                throw std::runtime_error("the decoder returned no hypothesis");
            const Hypothesis& best = result->decoded.nbest.front();
            for (int id : best.tokens)
                result->outputSteps.push_back(result->copy->tgtVocab.token(id));
            if (best.finished)
                result->outputSteps.push_back(QStringLiteral("</s>"));
            result->topFive = topFiveOf(model, result->copy->tgtVocab, src, best);
        } catch (const std::exception& e) {
            result->error = QString::fromUtf8(e.what());
        }
        result->milliseconds = double(clock.nsecsElapsed()) / 1e6;
        results_->post([this, result] { onResult(result); });
    };
    AS_TSAN_RELEASE(&handOff);
    pool_.start(std::move(job));
}

void TranslateView::onResult(std::shared_ptr<const Result> result)
{
    busy_.erase(std::find(busy_.begin(), busy_.end(), result->copy.get()));
    --running_;
    if (result->id == requestId_ && showResult(result))  // older requests' results are dropped
        emit translationFinished(lastTranslation_);
    startPending();  // a request that waited for this copy
}

bool TranslateView::showResult(std::shared_ptr<const Result> result)
{
    const Result& r = *result;
    if (!r.error.isEmpty()) {
        setMessage(tr("Translation failed: %1").arg(r.error), true);
        return false;
    }
    const ModelCopy& copy = *r.copy;
    const Hypothesis& best = r.decoded.nbest.front();
    sourceTokens_ = r.srcTokens;
    unknown_ = r.unknown;
    topFive_ = r.topFive;
    lastTranslation_ = detokenize(copy.tgtTokenizer, copy.tgtVocab.decode(best.tokens));
    output_->setText(lastTranslation_.isEmpty() ? tr("(empty output)") : lastTranslation_);
    showSourceChips(r.srcTokens, copy);

    QStringList lines, warnings;
    lines << tr("%1 with the weights of step %2 in %3 ms%4.")
                 .arg(r.beam ? tr("Beam search (k = %1)").arg(r.k) : tr("Greedy decoding"))
                 .arg(copy.step)
                 .arg(r.milliseconds, 0, 'f', 0)
                 .arg(best.finished ? QString()
                                    : tr("; the output reached the length limit without </s>"));
    if (!r.unknown.isEmpty())
        warnings << tr("%n source token(s) not in the vocabulary, read as <unk>: %1", nullptr,
                       r.unknownCount)
                        .arg(r.unknown.join(QStringLiteral("  ")));
    if (!r.notice.isEmpty())
        warnings << r.notice;
    setMessage(lines + warnings, warnings);

    // n-best list.
    const int nb = int(r.decoded.nbest.size());
    nbestTable_->setRowCount(nb);
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    for (int i = 0; i < nb; ++i) {
        const Hypothesis& h = r.decoded.nbest[i];
        nbestTable_->setItem(i, 0, cell(QString::number(i + 1), right));
        auto* text = cell(detokenize(copy.tgtTokenizer, copy.tgtVocab.decode(h.tokens)));
        text->setToolTip(text->text());  // whole, when the column elides it
        nbestTable_->setItem(i, 1, text);
        nbestTable_->setItem(i, 2, cell(QString::number(h.score, 'f', 3), right));
        nbestTable_->setItem(i, 3, cell(QString::number(h.logprob, 'f', 3), right));
        nbestTable_->setItem(i, 4, cell(h.finished ? tr("</s>") : tr("max length"),
                                        Qt::AlignCenter));
    }

    // Top-5 per step: five rows per step, the step cell spanning them.
    topTable_->clearSpans();
    topTable_->setRowCount(0);
    int row = 0, stepWidth = topTable_->fontMetrics().horizontalAdvance(tr("step"));
    for (int t = 0; t < int(r.topFive.size()); ++t) {
        const QList<QPair<QString, double>>& five = r.topFive[t];
        const QString chosen = r.outputSteps.value(t);
        topTable_->setRowCount(row + int(five.size()));
        auto* stepItem = cell(tr("%1 · %2").arg(t + 1).arg(chosen), Qt::AlignCenter);
        topTable_->setItem(row, 0, stepItem);
        stepWidth = std::max(stepWidth, topTable_->fontMetrics().horizontalAdvance(stepItem->text()));
        if (five.size() > 1)
            topTable_->setSpan(row, 0, int(five.size()), 1);
        for (int i = 0; i < int(five.size()); ++i) {
            auto* token = cell(five[i].first);
            auto* p = cell(QString::number(five[i].second, 'f', 3), right);
            // A bar of the probability as the cell's tint.
            p->setBackground(QColor(107, 174, 214, int(40 + 180 * five[i].second)));
            if (five[i].first == chosen) {
                QFont f = token->font();
                f.setBold(true);
                token->setFont(f);
                p->setFont(f);
            }
            topTable_->setItem(row + i, 1, token);
            topTable_->setItem(row + i, 2, p);
        }
        row += int(five.size());
    }
    // Spanned cells do not count in resizeColumnToContents().
    topTable_->setColumnWidth(0, std::min(stepWidth + 16, 160));
    topTable_->resizeColumnToContents(2);

    // Cross-attention: last layer, mean over heads by default.
    const CrossAttention& ca = r.decoded.cross;
    const bool sameShape = crossLayer_->count() == ca.layers && crossHead_->count() == ca.heads + 1;
    if (!sameShape) {
        const QSignalBlocker b1(crossLayer_), b2(crossHead_);
        crossLayer_->clear();
        for (int l = 0; l < ca.layers; ++l)
            crossLayer_->addItem(tr("layer %1").arg(l + 1));
        crossLayer_->setCurrentIndex(ca.layers - 1);
        crossHead_->clear();
        crossHead_->addItem(tr("mean of heads"));
        for (int h = 0; h < ca.heads; ++h)
            crossHead_->addItem(tr("head %1").arg(h + 1));
        crossHead_->setCurrentIndex(0);
    }
    last_ = std::move(result);
    drawCross();
    return true;
}

void TranslateView::showSourceChips(const QStringList& tokens, const ModelCopy& copy)
{
    QString html = tr("Source tokens:") + QStringLiteral(" ");
    for (const QString& t : tokens) {
        const bool unk = !copy.srcVocab.contains(t);
        const QString style =
            unk ? QStringLiteral("background-color:#fddbc7; color:#b2182b; "
                                 "text-decoration:line-through;")
                : QStringLiteral("background-color:#deebf7; color:#08306b;");
        html += QStringLiteral("<span style=\"%1\">&nbsp;%2&nbsp;</span>%3 ")
                    .arg(style, t.toHtmlEscaped(),
                         unk ? QStringLiteral("<sub style=\"color:#b2182b;\">&lt;unk&gt;</sub>")
                             : QString());
    }
    chips_->setText(html);
}

void TranslateView::drawCross()
{
    if (!last_ || last_->decoded.cross.steps == 0) {
        setHeatmapData(crossHeat_, 0, 0, [](int, int) { return 0.0; });
        replotIfVisible(crossPlot_);
        return;
    }
    const CrossAttention& ca = last_->decoded.cross;
    const int layer = std::clamp(crossLayer_->currentIndex(), 0, ca.layers - 1);
    const int head = crossHead_->currentIndex() - 1;  // -1: mean over heads
    setHeatmapData(
        crossHeat_, ca.steps, ca.srcLen,
        [&](int t, int s) {
            if (head >= 0)
                return double(ca.at(layer, head, t, s));
            double sum = 0;
            for (int h = 0; h < ca.heads; ++h)
                sum += ca.at(layer, h, t, s);
            return sum / ca.heads;
        },
        last_->outputSteps.mid(0, ca.steps), last_->srcTokens.mid(0, ca.srcLen));
    replotIfVisible(crossPlot_);
}

QString TranslateView::crossCsv() const
{
    if (!last_ || crossHeat_.rows == 0)
        return {};
    QString csv = QStringLiteral("output\\source");
    for (int s = 0; s < crossHeat_.cols; ++s)
        csv += QLatin1Char(',') + csvField(last_->srcTokens.value(s));
    csv += QLatin1Char('\n');
    for (int t = 0; t < crossHeat_.rows; ++t) {
        csv += csvField(last_->outputSteps.value(t));
        for (int s = 0; s < crossHeat_.cols; ++s)
            csv += QLatin1Char(',') + QString::number(crossHeat_.map->data()->cell(s, t), 'g', 6);
        csv += QLatin1Char('\n');
    }
    return csv;
}

int TranslateView::nbestRows() const
{
    return nbestTable_->rowCount();
}

QSize TranslateView::crossAttentionShape() const
{
    return QSize(crossHeat_.cols, crossHeat_.rows);
}

QList<QPair<QString, double>> TranslateView::topFive(int step) const
{
    if (step < 0 || step >= int(topFive_.size()))
        return {};
    return topFive_[step];
}

}  // namespace as::ui
