// The tokenisers, their inverse and the tokeniser guess on arbitrary text, as a user can type
// or paste it: the first byte chooses how the rest becomes a QString (UTF-8 with its invalid
// bytes replaced, or raw UTF-16 with unpaired surrogates, which a QLineEdit can hold).
#include "text/tokenizer.h"
#include "text/vocab.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const std::uint8_t mode = data[0];
    const char* rest = reinterpret_cast<const char*>(data + 1);
    const auto n = qsizetype(size - 1);
    const QString text = (mode & 1) ? QString::fromUtf16(reinterpret_cast<const char16_t*>(rest), n / 2)
                                    : QString::fromUtf8(rest, n);
    (void)as::tokenizerFromName(text);

    for (as::TokenizerKind kind : {as::TokenizerKind::CjkChar, as::TokenizerKind::Word}) {
        const QStringList tokens = as::tokenize(kind, text);
        for (const QString& t : tokens)
            if (t.isEmpty())
                std::abort();  // an empty token would be an invisible vocabulary entry
        const QString back = as::detokenize(kind, tokens);
        (void)as::tokenize(kind, back);
        // detokenize also gets what the decoder emits: any tokens, empty ones included.
        (void)as::detokenize(kind, text.split(QChar(u'\x1f')));

        const as::Vocab vocab = as::Vocab::build({tokens});
        const std::vector<int> ids = vocab.encode(tokens);
        if (as::Vocab::build({}).encode(tokens).size() != std::size_t(tokens.size()))
            std::abort();
        (void)vocab.decode(ids);
    }
    (void)as::guessTokenizer(text.split(u'\n'));
    for (char32_t c : text.toUcs4())
        (void)as::isCjk(c);
    return 0;
}
