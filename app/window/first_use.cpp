// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "first_use.h"

#include "background_job.h"

#include "model/gemm_tuning.h"
#include "model/parallel.h"
#include "train/product_tuning.h"

#include <QCoreApplication>
#include <QMainWindow>
#include <QProgressDialog>
#include <QStatusBar>

#include <memory>

namespace as {

BackgroundJob* measureProductsAtFirstUse(QMainWindow* window, std::function<void()> then)
{
    if (!productTuningNeeded(engineThreads())) {
        if (then)
            then();
        return nullptr;
    }
    auto* job = new BackgroundJob(window);
    // `then` once, whichever way the job ends.
    auto next = std::make_shared<std::function<void()>>(std::move(then));
    const auto finish = [job, next] {
        job->deleteLater();
        if (auto f = std::exchange(*next, {}))
            f();
    };
    QObject::connect(job, &BackgroundJob::canceled, window, [window, finish] {
        window->statusBar()->showMessage(
            QCoreApplication::translate("FirstUse",
                                        "Measuring cancelled: the matrix products run in the default "
                                        "library; the window measures again at its next start"),
            10000);
        finish();
    });
    job->start([window, finish](const Progress& progress) -> std::function<void()> {
        QString error;
        const std::optional<GemmTuning> tuning = measureProductTuningAtFirstUse(progress, &error);
        if (!tuning)
            return {};  // cancelled: canceled() has answered
        const QString chosen = gemmChoiceSummary();
        return [window, finish, error, chosen] {
            const QString said =
                error.isEmpty()
                    ? QCoreApplication::translate("FirstUse", "Matrix products measured on this CPU: %1")
                          .arg(chosen)
                    : QCoreApplication::translate("FirstUse", "Matrix products measured on this CPU: %1 (%2)")
                          .arg(chosen, error);
            window->statusBar()->showMessage(said, 15000);
            finish();
        };
    });
    job->showProgress(window, QCoreApplication::translate("FirstUse", "First start on this computer"),
                      QCoreApplication::translate("FirstUse",
                                                  "Measuring which library computes this CPU's matrix "
                                                  "products fastest (a few seconds, once)…"),
                      true);
    // Over the window, before anything can train; shown at once.
    job->progressDialog()->setWindowModality(Qt::WindowModal);
    job->progressDialog()->setMinimumDuration(0);
    return job;
}

}  // namespace as
