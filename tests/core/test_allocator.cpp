// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The C library's allocator as the programs set it (core/train/allocator.h): with
// keepFreedMemoryForReuse, memory a thread frees stays in the process (the resident size, read
// from the kernel, does not fall); FreedMemoryReturner gives it back, at once (returnNow) and
// every interval from its own thread, and the resident size falls by most of what was freed.
#include "skip.h"
#include "train/allocator.h"

#include <QFile>
#include <QtTest>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

// Resident bytes, as the kernel counts them (/proc/self/statm, second field, in pages).
double residentMib()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = f.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toDouble() * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0) : -1;
}

// 512 blocks of 1 MiB (under keepFreedMemoryForReuse's mmap threshold: from the heap), touched,
// by a thread of its own (its own arena, as the window's threads have); every other one freed,
// so that 256 MiB are free between blocks still in use, as a long run leaves them. The rest is
// freed by release().
class Fragmented {
public:
    Fragmented()
    {
        std::thread t([this] {
            for (int i = 0; i < 512; ++i) {
                void* p = std::malloc(std::size_t(1) << 20);
                std::memset(p, 1, std::size_t(1) << 20);
                blocks_.push_back(p);
            }
            for (std::size_t i = 0; i < blocks_.size(); i += 2) {
                std::free(blocks_[i]);
                blocks_[i] = nullptr;
            }
        });
        t.join();
    }
    ~Fragmented()
    {
        for (void* p : blocks_)
            std::free(p);
    }

private:
    std::vector<void*> blocks_;
};

}  // namespace

class TestAllocator : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
#if !defined(__GLIBC__)
        AS_SKIP("the allocator's settings are glibc's");
#endif
        as::keepFreedMemoryForReuse();
        QVERIFY(residentMib() > 0);
    }

    void keptThenReturned()
    {
        const double before = residentMib();
        const Fragmented memory;
        const double kept = residentMib();
        // 512 MiB touched, half of it freed and kept.
        QVERIFY2(kept - before > 450, qPrintable(QStringLiteral("%1 -> %2 MiB").arg(before).arg(kept)));
        QVERIFY(as::FreedMemoryReturner::returnNow());
        const double returned = residentMib();
        QVERIFY2(kept - returned > 200, qPrintable(QStringLiteral("%1 -> %2 MiB").arg(kept).arg(returned)));
    }

    void returnedEveryInterval()
    {
        const double before = residentMib();
        const Fragmented memory;
        QVERIFY(residentMib() - before > 450);
        const as::FreedMemoryReturner returner(std::chrono::milliseconds(50));
        // Within a few intervals its thread has given the free half back.
        QTRY_VERIFY_WITH_TIMEOUT(residentMib() - before < 300, 5000);
    }
};

AS_TEST_GUILESS_MAIN(TestAllocator)
#include "test_allocator.moc"
