#pragma once
// What `attention-studio-cli train --data` does when not told otherwise: the recipe that learned
// best in 20 minutes of CPU on the Tatoeba zh→en corpus (README, "What 20 minutes buy").
// SPEC.md's small model with dropout 0.2 (at the engine's speed it sees the ~27k pairs six to
// ten times in 20 minutes, too often for 0.1), batches of 1,500 tokens, warmup 800, and the
// mean of the weights at 80, 85, 90, 95 and 100 % of the budget (the paper's §6.1).
namespace cli_defaults {
inline constexpr char kCorpusConfig[] = "small,dropout=0.2";
inline constexpr int kBatchTokens = 1500;
inline constexpr long kWarmup = 800;
inline constexpr int kAveragePoints = 5;
}  // namespace cli_defaults
