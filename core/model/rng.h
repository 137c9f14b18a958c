// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A small, fast, fully specified generator (xoshiro256**, seeded by splitmix64). Its state is
// four integers, so it can be saved in a checkpoint and restored exactly; unlike std::
// distributions, its output does not depend on the standard library.
#include <array>
#include <cstdint>

namespace as {

class Rng {
public:
    explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

    void reseed(std::uint64_t seed)
    {
        std::uint64_t x = seed;
        for (auto& word : s_) {
            x += 0x9e3779b97f4a7c15ULL;
            std::uint64_t z = x;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            word = z ^ (z >> 31);
        }
    }

    std::uint64_t next()
    {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    // Uniform in [0, 1) with 24 random bits: enough for a dropout decision, and cheaper.
    float uniformFloat() { return float(next() >> 40) * 0x1.0p-24f; }
    // Uniform integer in [0, n).
    std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }

    using State = std::array<std::uint64_t, 4>;
    State state() const { return s_; }
    void setState(const State& s) { s_ = s; }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    State s_{};
};

}  // namespace as
