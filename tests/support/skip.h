// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one way a test skips: AS_SKIP(reason); and the one way a test's main() ends:
// AS_TEST_MAIN / AS_TEST_GUILESS_MAIN / AS_TEST_APPLESS_MAIN (for QTEST_MAIN and its kin), whose
// exit status is 77 — kSkipExitCode, which tests/CMakeLists.txt gives CTest as
// SKIP_RETURN_CODE — only when something skipped and nothing failed. (A skip told by the
// output alone, SKIP_REGULAR_EXPRESSION, would turn a failure beside a skip into a skip.) ctest counts a skip as a pass, so a run that
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

inline constexpr int kSkipExitCode = 77;

// Skips so far in this process (AS_SKIP counts them).
inline int& skipCount()
{
    static int count = 0;
    return count;
}

// The exit status of a test executable whose QTest::qExec returned `result` (the number of
// failures): the failures when there are any, else kSkipExitCode when a function skipped,
// else 0.
inline int exitStatus(int result)
{
    if (result != 0)
        return result;
    return skipCount() > 0 ? kSkipExitCode : 0;
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
        ++::as::test::skipCount();                                                              \
        QSKIP(qPrintable(as_skip_reason_));                                                     \
    } while (false)

// QTEST_MAIN's main(), with the exit status of as::test::exitStatus.
#define AS_TEST_MAIN_WRAPPER(TestObject, ...)                                                   \
    int main(int argc, char* argv[])                                                            \
    {                                                                                           \
        TESTLIB_SELFCOVERAGE_START(#TestObject)                                                 \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                      \
        __VA_ARGS__                                                                             \
        TestObject tc;                                                                          \
        QTEST_SET_MAIN_SOURCE_PATH                                                              \
        return ::as::test::exitStatus(QTest::qExec(&tc, argc, argv));                          \
    }
#define AS_TEST_MAIN(TestObject) AS_TEST_MAIN_WRAPPER(TestObject, QTEST_MAIN_SETUP())
#define AS_TEST_GUILESS_MAIN(TestObject)                                                        \
    AS_TEST_MAIN_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
#define AS_TEST_APPLESS_MAIN(TestObject) AS_TEST_MAIN_WRAPPER(TestObject)
