#pragma once
// The one way a test skips: AS_SKIP(reason). ctest counts a skip as a pass, so a run that
// skipped looks as green as one that checked everything. On a user's machine the test still
// skips, and the reason must say what is missing and how to get it ("install Debian's
// python3-torch: bash scripts/install-deps.sh --torch"). With AS_REQUIRE_ALL_TESTS=1 in the
// environment (.ci/run sets it) the same line is a failure, so CI cannot pass on a test that
// proved nothing.
#include <QString>
#include <QtTest>

namespace as::test {

inline bool requireAllTests()
{
    return qEnvironmentVariableIntValue("AS_REQUIRE_ALL_TESTS") == 1;
}

inline QString skipText(const QString& reason) { return reason; }
inline QString skipText(const char* reason) { return QString::fromUtf8(reason); }

} // namespace as::test

// A statement, like QSKIP: it returns from the test function.
#define AS_SKIP(reason)                                                                         \
    do {                                                                                        \
        const QString as_skip_reason_ = ::as::test::skipText(reason);                          \
        if (::as::test::requireAllTests())                                                      \
            QFAIL(qPrintable(QStringLiteral("AS_REQUIRE_ALL_TESTS=1, and this test would skip: ") \
                             + as_skip_reason_));                                               \
        QSKIP(qPrintable(as_skip_reason_));                                                     \
    } while (false)
