// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A test executable that passes, skips or fails as its command line asks (QTest runs the
// functions named there): tests/core/test_test_rules.cpp runs it through CTest to show that a
// failure beside a skip is reported as a failure, and a skip alone as a skip.
#include "skip.h"

#include <QObject>

class SkipProbe : public QObject {
    Q_OBJECT
private slots:
    void passes() { QVERIFY(true); }
    void skips() { AS_SKIP("the probe skips"); }
    void fails() { QFAIL("the probe fails"); }
};

AS_TEST_APPLESS_MAIN(SkipProbe)
#include "skip_probe.moc"
