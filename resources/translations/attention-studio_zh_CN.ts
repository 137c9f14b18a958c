<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>FirstUse</name>
    <message>
        <source>Measuring cancelled: the matrix products run in the default library; the window measures again at its next start</source>
        <translation>已取消测量：矩阵乘法使用默认的库；下次启动时窗口会再次测量</translation>
    </message>
    <message>
        <source>Matrix products measured on this CPU: %1</source>
        <translation>已在此 CPU 上测量矩阵乘法：%1</translation>
    </message>
    <message>
        <source>Matrix products measured on this CPU: %1 (%2)</source>
        <translation>已在此 CPU 上测量矩阵乘法：%1（%2）</translation>
    </message>
    <message>
        <source>First start on this computer</source>
        <translation>首次在这台计算机上启动</translation>
    </message>
    <message>
        <source>Measuring which library computes this CPU&apos;s matrix products fastest (a few seconds, once)…</source>
        <translation>正在测量哪个库在此 CPU 上计算矩阵乘法最快（只需几秒，仅此一次）…</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>encoder self</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>decoder self</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>cross</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export this plot as PNG or SVG, or its data as CSV</source>
        <translation>将此图导出为 PNG 或 SVG，或将其数据导出为 CSV</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Export PNG</source>
        <translation>导出 PNG</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export SVG…</source>
        <translation>导出 SVG…</translation>
    </message>
    <message>
        <source>Export SVG</source>
        <translation>导出 SVG</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>CSV data (*.csv)</source>
        <translation>CSV 数据 (*.csv)</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>as::BesideTranslator</name>
    <message>
        <source>Translate every sentence of the Translate view with another model too — a model file, a checkpoint or a Hugging Face folder such as opus-mt-zh-en — and see both cross-attention maps side by side (Ctrl+Shift+T)</source>
        <translation>“翻译”视图中的每个句子也用另一个模型翻译——模型文件、检查点，或 opus-mt-zh-en 这样的 Hugging Face 文件夹——并把两者的交叉注意力图并排显示（Ctrl+Shift+T）</translation>
    </message>
    <message>
        <source>Translate beside a model</source>
        <translation>与另一模型并排翻译</translation>
    </message>
    <message>
        <source>Models and checkpoints (*.safetensors *.%1 config.json pytorch_model.bin);;All files (*)</source>
        <translation>模型和检查点 (*.safetensors *.%1 config.json pytorch_model.bin);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 was not opened beside: %2</source>
        <translation>%1 未能并排打开：%2</translation>
    </message>
    <message>
        <source>it is a language model (decoder-only); only a translator can translate beside this one</source>
        <translation>它是语言模型（仅解码器）；只有翻译模型才能与当前模型并排翻译</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Tra&amp;nslate beside a model…</source>
        <translation>与另一模型并排翻译(&amp;N)…</translation>
    </message>
    <message>
        <source>Stop translating besi&amp;de</source>
        <translation>停止并排翻译(&amp;D)</translation>
    </message>
</context>
<context>
    <name>as::Bf16</name>
    <message>
        <source>this CPU has no bfloat16 units (AVX512-BF16 or AMX-BF16)</source>
        <translation>这颗 CPU 没有 bfloat16 运算单元（AVX512-BF16 或 AMX-BF16）</translation>
    </message>
    <message>
        <source>this build has no oneDNN headers (Debian&apos;s libdnnl-dev) for its bfloat16 products</source>
        <translation>本次构建没有 oneDNN 的头文件（Debian 的 libdnnl-dev），无法进行 bfloat16 矩阵乘法</translation>
    </message>
    <message>
        <source>oneDNN, which computes the bfloat16 products, is not installed (Debian&apos;s libdnnl2)</source>
        <translation>未安装负责 bfloat16 矩阵乘法的 oneDNN（Debian 的 libdnnl2）</translation>
    </message>
    <message>
        <source>the oneDNN installed lacks the matmul primitive</source>
        <translation>已安装的 oneDNN 缺少 matmul 原语</translation>
    </message>
    <message>
        <source>oneDNN&apos;s bfloat16 matmul failed (%1: status %2)</source>
        <translation>oneDNN 的 bfloat16 矩阵乘法失败（%1：状态 %2）</translation>
    </message>
    <message>
        <source>bfloat16 products are turned off here (AS_BF16=off)</source>
        <translation>这里关闭了 bfloat16 乘积（AS_BF16=off）</translation>
    </message>
</context>
<context>
    <name>as::ByteLevelBpe</name>
    <message>
        <source>the vocabulary lacks the symbol of byte 0x%1, &apos;%2&apos;: a byte-level BPE vocabulary has all 256</source>
        <translation>词表缺少字节 0x%1 的符号“%2”：字节级 BPE 的词表包含全部 256 个字节</translation>
    </message>
    <message>
        <source>%1: %2 is not in the vocabulary</source>
        <translation>%1：%2 不在词表中</translation>
    </message>
    <message>
        <source>%1: the merge of %2 and %3, %4, is not in the vocabulary</source>
        <translation>%1：%2 与 %3 合并得到的 %4 不在词表中</translation>
    </message>
    <message>
        <source>a special token is empty (id %1)</source>
        <translation>有一个特殊词元为空（id %1）</translation>
    </message>
    <message>
        <source>%1: %2 has id %3, outside 0..%4 (the ids must be 0 to N-1, each once)</source>
        <translation>%1：%2 的 id 为 %3，超出 0..%4（id 必须是 0 到 N-1，且各出现一次）</translation>
    </message>
    <message>
        <source>%1: id %2 is given twice (%3 and %4)</source>
        <translation>%1：id %2 出现了两次（%3 和 %4）</translation>
    </message>
    <message>
        <source>%1: the id of %2 is not a whole number</source>
        <translation>%1：%2 的 id 不是整数</translation>
    </message>
    <message>
        <source>%1 is not valid JSON: %2 (at byte %3)</source>
        <translation>%1 不是有效的 JSON：%2（在第 %3 字节）</translation>
    </message>
    <message>
        <source>%1 is not a JSON object</source>
        <translation>%1 不是 JSON 对象</translation>
    </message>
    <message>
        <source>merges.txt line %1</source>
        <translation>merges.txt 第 %1 行</translation>
    </message>
    <message>
        <source>%1: a merge is two pieces and a space, not &apos;%2&apos;</source>
        <translation>%1：一条合并规则是以空格分隔的两个片段，而不是“%2”</translation>
    </message>
    <message>
        <source>tokenizer.json has no model</source>
        <translation>tokenizer.json 中没有 model</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s model is &apos;%1&apos;, not BPE: only GPT-2&apos;s byte-level BPE is read</source>
        <translation>tokenizer.json 的 model 是“%1”而不是 BPE：只读取 GPT-2 的字节级 BPE</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s pre_tokenizer is &apos;%1&apos;, not ByteLevel: only GPT-2&apos;s byte-level BPE is read</source>
        <translation>tokenizer.json 的 pre_tokenizer 是“%1”而不是 ByteLevel：只读取 GPT-2 的字节级 BPE</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s ByteLevel pre_tokenizer has add_prefix_space, which GPT-2&apos;s has not</source>
        <translation>tokenizer.json 的 ByteLevel pre_tokenizer 设置了 add_prefix_space，而 GPT-2 的没有</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s ByteLevel pre_tokenizer has use_regex false: GPT-2&apos;s splits the text by its pattern</source>
        <translation>tokenizer.json 的 ByteLevel pre_tokenizer 的 use_regex 为 false：GPT-2 的会按其正则模式切分文本</translation>
    </message>
    <message>
        <source>tokenizer.json has a normalizer (&apos;%1&apos;), which GPT-2&apos;s has not</source>
        <translation>tokenizer.json 有规范化器（“%1”），而 GPT-2 的没有</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s BPE has dropout: GPT-2&apos;s merges always</source>
        <translation>tokenizer.json 的 BPE 设置了 dropout：GPT-2 的总是执行合并</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s BPE has a %1, which GPT-2&apos;s has not</source>
        <translation>tokenizer.json 的 BPE 设置了 %1，而 GPT-2 的没有</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s BPE has %1 on, which GPT-2&apos;s has not</source>
        <translation>tokenizer.json 的 BPE 开启了 %1，而 GPT-2 的没有</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s model has no vocab object</source>
        <translation>tokenizer.json 的 model 中没有 vocab 对象</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s added_tokens[%1] has no content or no id</source>
        <translation>tokenizer.json 的 added_tokens[%1] 缺少 content 或 id</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s added token %1 has id %2, but the vocabulary gives it %3</source>
        <translation>tokenizer.json 中添加的词元 %1 的 id 为 %2，但词表给它的是 %3</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s model has no merges list</source>
        <translation>tokenizer.json 的 model 中没有 merges 列表</translation>
    </message>
    <message>
        <source>tokenizer.json&apos;s merges[%1]</source>
        <translation>tokenizer.json 的 merges[%1]</translation>
    </message>
    <message>
        <source>%1: a merge is two pieces (&quot;a b&quot; or [&quot;a&quot;, &quot;b&quot;]), not %2</source>
        <translation>%1：一条合并规则是两个片段（&quot;a b&quot; 或 [&quot;a&quot;, &quot;b&quot;]），而不是 %2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 has %2 but no %3 (and no tokenizer.json)</source>
        <translation>%1 中有 %2 但没有 %3（也没有 tokenizer.json）</translation>
    </message>
    <message>
        <source>%1 has neither vocab.json and merges.txt nor tokenizer.json</source>
        <translation>%1 中既没有 vocab.json 和 merges.txt，也没有 tokenizer.json</translation>
    </message>
</context>
<context>
    <name>as::Checkpoint</name>
    <message>
        <source>the averaging sum has %1 values for %2 parameters, or one that is not finite</source>
        <translation>平均累加和有 %1 个值，对应 %2 个参数，或其中有值不是有限数</translation>
    </message>
    <message>
        <source>cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>section &apos;model&apos;: %1</source>
        <translation>“model”段：%1</translation>
    </message>
    <message>
        <source>section &apos;meta&apos;: %1</source>
        <translation>“meta”段：%1</translation>
    </message>
    <message>
        <source>section &apos;adam&apos;: %1 bytes, but two moments of the model&apos;s %2 parameters take %3</source>
        <translation>“adam”段：%1 字节，但模型 %2 个参数的两个矩估计需要 %3</translation>
    </message>
    <message>
        <source>section &apos;adam&apos;: a moment is not finite (or a second moment is negative)</source>
        <translation>“adam”段：有矩估计不是有限数（或二阶矩为负）</translation>
    </message>
    <message>
        <source>section &apos;history&apos;: %1</source>
        <translation>“history”段：%1</translation>
    </message>
    <message>
        <source>section &apos;average&apos;: %1 bytes for %2 averaging snapshots</source>
        <translation>“average”段：%1 字节，对应 %2 次平均快照</translation>
    </message>
    <message>
        <source>section &apos;average&apos;: %1 bytes, but the sum of the model&apos;s %2 parameters takes %3</source>
        <translation>“average”段：%1 字节，但模型 %2 个参数的累加和需要 %3</translation>
    </message>
    <message>
        <source>section &apos;average&apos;: a value is not finite</source>
        <translation>“average”段：有值不是有限数</translation>
    </message>
    <message>
        <source>out of memory while loading</source>
        <translation>加载时内存不足</translation>
    </message>
    <message>
        <source>the save was abandoned after %1 of %2 bytes</source>
        <translation>保存在写入 %1 / %2 字节后被放弃</translation>
    </message>
    <message>
        <source>not an Attention Studio checkpoint (no magic number at the start)</source>
        <translation>不是 Attention Studio 检查点（开头没有魔数）</translation>
    </message>
    <message>
        <source>truncated in the header (%1 bytes)</source>
        <translation>在文件头处被截断（%1 字节）</translation>
    </message>
    <message>
        <source>format version %1; this program reads versions %2 to %3</source>
        <translation>格式版本 %1；本程序读取版本 %2 到 %3</translation>
    </message>
    <message>
        <source>the header lists %1 sections (1 … %2 allowed)</source>
        <translation>文件头列出 %1 个段（允许 1 … %2 个）</translation>
    </message>
    <message>
        <source>truncated in the section table: %1 bytes, the table needs %2</source>
        <translation>在段表处被截断：%1 字节，段表需要 %2</translation>
    </message>
    <message>
        <source>the header&apos;s checksum does not match: the section table is damaged</source>
        <translation>文件头的校验和不匹配：段表已损坏</translation>
    </message>
    <message>
        <source>unknown section &apos;%1&apos;</source>
        <translation>未知的段“%1”</translation>
    </message>
    <message>
        <source>section &apos;%1&apos; appears twice</source>
        <translation>段“%1”出现了两次</translation>
    </message>
    <message>
        <source>section &apos;%1&apos; starts at byte %2, expected %3</source>
        <translation>段“%1”从第 %2 字节开始，应为 %3</translation>
    </message>
    <message>
        <source>section &apos;%1&apos; (%2 bytes at %3) runs past the end of the %4-byte file: truncated?</source>
        <translation>段“%1”（位于 %3 处的 %2 字节）超出了 %4 字节文件的末尾：文件被截断了？</translation>
    </message>
    <message>
        <source>section &apos;%1&apos;: checksum mismatch (the file is damaged)</source>
        <translation>段“%1”：校验和不匹配（文件已损坏）</translation>
    </message>
    <message>
        <source>no &apos;%1&apos; section</source>
        <translation>没有“%1”段</translation>
    </message>
    <message>
        <source>%1 unexpected bytes after the last section</source>
        <translation>最后一段之后多出 %1 字节</translation>
    </message>
    <message>
        <source>the sections add up to %1 bytes but the file has %2: truncated, or not written completely</source>
        <translation>各段合计 %1 字节，但文件只有 %2：文件被截断，或未写完</translation>
    </message>
    <message>
        <source>its %1 cannot be held in this machine&apos;s %2 of memory</source>
        <translation>其所需的 %1 超出了本机 %2 的内存</translation>
    </message>
    <message>
        <source>&apos;%1%2&apos; is missing or not a number</source>
        <translation>“%1%2”缺失或不是数字</translation>
    </message>
    <message>
        <source>&apos;%1%2&apos; is %3, not in [%4, %5]</source>
        <translation>“%1%2”为 %3，不在 [%4, %5] 内</translation>
    </message>
    <message>
        <source>&apos;%1%2&apos; is %3, not a whole number</source>
        <translation>“%1%2”为 %3，不是整数</translation>
    </message>
    <message>
        <source>&apos;rng.%1&apos; must be 64 hex digits, not all zero</source>
        <translation>“rng.%1”必须是 64 位十六进制数字，且不能全为零</translation>
    </message>
    <message>
        <source>&apos;format&apos; is not &quot;attention-studio-checkpoint&quot;</source>
        <translation>“format”不是“attention-studio-checkpoint”</translation>
    </message>
    <message>
        <source>&apos;options&apos; is missing or not an object</source>
        <translation>“options”缺失或不是对象</translation>
    </message>
    <message>
        <source>&apos;options.warmup&apos; is 0; it must be at least 1</source>
        <translation>“options.warmup”为 0；它至少应为 1</translation>
    </message>
    <message>
        <source>&apos;options.seed&apos; must be a decimal string of a 64-bit seed</source>
        <translation>“options.seed”必须是表示 64 位种子的十进制字符串</translation>
    </message>
    <message>
        <source>&apos;rng&apos; is missing or not an object</source>
        <translation>“rng”缺失或不是对象</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is missing or not an object</source>
        <translation>“%1”缺失或不是对象</translation>
    </message>
    <message>
        <source>not a JSON object (%1)</source>
        <translation>不是 JSON 对象（%1）</translation>
    </message>
    <message>
        <source>&apos;options.precision&apos; must be &quot;float32&quot; or &quot;bf16&quot;</source>
        <translation>&apos;options.precision&apos; 必须是 &quot;float32&quot; 或 &quot;bf16&quot;</translation>
    </message>
</context>
<context>
    <name>as::ComparisonActions</name>
    <message>
        <source>Comparing with %1</source>
        <translation>正在与 %1 对比</translation>
    </message>
    <message>
        <source>&amp;Compare with run…</source>
        <translation>与其他运行对比(&amp;C)…</translation>
    </message>
    <message>
        <source>Draw another run&apos;s loss, learning rate and validation beside this one&apos;s, from its checkpoint (up to %1 runs; Ctrl+Shift+C)</source>
        <translation>从另一次运行的检查点读取其损失、学习率和验证结果，画在本次运行旁边（最多 %1 次运行；Ctrl+Shift+C）</translation>
    </message>
    <message>
        <source>Compare with run</source>
        <translation>与其他运行对比</translation>
    </message>
    <message>
        <source>Attention Studio checkpoints (*.%1);;All files (*)</source>
        <translation>Attention Studio 检查点 (*.%1);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Remove compared run</source>
        <translation>移除对比的运行(&amp;R)</translation>
    </message>
    <message>
        <source>A/&amp;B session…</source>
        <translation>A/B 会话(&amp;B)…</translation>
    </message>
    <message>
        <source>Train a second session B beside this one — other model or optimisation settings, the same data, order and seed — in alternation, both from step 0, every plot showing both (Ctrl+B)</source>
        <translation>在本会话旁边训练第二个会话 B：模型或优化设置不同，数据、顺序和种子相同；两者交替训练，都从第 0 步开始，每张图都同时显示两者（Ctrl+B）</translation>
    </message>
    <message>
        <source>&amp;Keep B as the session</source>
        <translation>保留 B 作为会话(&amp;K)</translation>
    </message>
    <message>
        <source>B becomes the session (paused, with its history) and A is dropped: to go on training, save or export it</source>
        <translation>B 成为当前会话（已暂停，保留其历史），A 被丢弃：之后可继续训练、保存或导出 B</translation>
    </message>
    <message>
        <source>&amp;Stop A/B</source>
        <translation>停止 A/B(&amp;S)</translation>
    </message>
    <message>
        <source>Drop B; A goes on alone</source>
        <translation>丢弃 B；A 继续单独训练</translation>
    </message>
    <message>
        <source>A/B: %1</source>
        <translation>A/B：%1</translation>
    </message>
    <message>
        <source>A/B needs a session that trains: apply a task or open a corpus first.</source>
        <translation>A/B 需要一个可训练的会话：请先应用一个任务或打开一个语料库。</translation>
    </message>
    <message>
        <source>A/B session</source>
        <translation>A/B 会话</translation>
    </message>
    <message>
        <source>Session B trains beside the current one (A) on the same data, in the same order, with the same seed: change what B should do differently. Both start again from step 0%1.</source>
        <translation>会话 B 在当前会话（A）旁边训练，使用相同的数据、相同的顺序和相同的种子：请修改 B 要不同的设置。两者都从第 0 步重新开始%1。</translation>
    </message>
    <message>
        <source> — A&apos;s %1 steps so far are not kept (save them first if you want them)</source>
        <translation>——A 目前的 %1 步不会保留（如需保留请先保存）</translation>
    </message>
    <message>
        <source>Start A/B</source>
        <translation>开始 A/B</translation>
    </message>
    <message>
        <source>B cannot be built: %1</source>
        <translation>无法构建 B：%1</translation>
    </message>
    <message>
        <source>B stopped at step %1: %2. A goes on.</source>
        <translation>B 在第 %1 步停止：%2。A 继续训练。</translation>
    </message>
    <message>
        <source> · B loss %1%2</source>
        <translation> · B 损失 %1%2</translation>
    </message>
    <message>
        <source> (stopped)</source>
        <translation>（已停止）</translation>
    </message>
    <message>
        <source>Reading %1 to compare…</source>
        <translation>正在读取 %1 以进行对比…</translation>
    </message>
    <message>
        <source>Remove &amp;all</source>
        <translation>全部移除(&amp;A)</translation>
    </message>
    <message>
        <source>A/B cancelled: B was not built, the session goes on as it was</source>
        <translation>A/B 已取消：未构建 B，当前会话照旧继续</translation>
    </message>
    <message>
        <source>Building session B (%1) on the current session&apos;s data…</source>
        <translation>正在用当前会话的数据构建会话 B（%1）…</translation>
    </message>
</context>
<context>
    <name>as::Corpus</name>
    <message>
        <source>%1 lines read, %2 pairs kept</source>
        <translation>读取 %1 行，保留 %2 对</translation>
    </message>
    <message>
        <source>%1 without the TAB between the sentences</source>
        <translation>%1 行两句之间没有 TAB</translation>
    </message>
    <message>
        <source>%1 with an empty side</source>
        <translation>%1 行有一边为空</translation>
    </message>
    <message>
        <source>%1 not valid UTF-8</source>
        <translation>%1 行不是有效的 UTF-8</translation>
    </message>
    <message>
        <source>%1 too long</source>
        <translation>%1 行过长</translation>
    </message>
    <message>
        <source>skipped </source>
        <translation>跳过 </translation>
    </message>
    <message>
        <source>%1 blank lines</source>
        <translation>%1 个空行</translation>
    </message>
    <message>
        <source>UTF-8 BOM</source>
        <translation>UTF-8 BOM</translation>
    </message>
    <message>
        <source>CRLF line ends</source>
        <translation>CRLF 行尾</translation>
    </message>
    <message>
        <source>%1: file not found</source>
        <translation>%1：找不到文件</translation>
    </message>
    <message>
        <source>%1: is a folder, not a corpus file</source>
        <translation>%1：是文件夹，不是语料文件</translation>
    </message>
    <message>
        <source>%1: is not a regular file (a pipe or a device cannot be read as a corpus)</source>
        <translation>%1：不是普通文件（管道或设备不能作为语料读取）</translation>
    </message>
    <message>
        <source>%1: cannot open: %2</source>
        <translation>%1：无法打开：%2</translation>
    </message>
    <message>
        <source>%1: cannot read: %2</source>
        <translation>%1：无法读取：%2</translation>
    </message>
    <message>
        <source>%1: file is empty</source>
        <translation>%1：文件为空</translation>
    </message>
    <message>
        <source>%1: file is UTF-16; save it as UTF-8</source>
        <translation>%1：文件是 UTF-16 编码，请另存为 UTF-8</translation>
    </message>
    <message>
        <source>%1: reading cancelled</source>
        <translation>%1：读取已取消</translation>
    </message>
    <message>
        <source>invalid UTF-8: &quot;%1&quot;</source>
        <translation>无效的 UTF-8：“%1”</translation>
    </message>
    <message>
        <source>no TAB between the English and the translation: &quot;%1&quot;</source>
        <translation>英文与译文之间没有 TAB：“%1”</translation>
    </message>
    <message>
        <source>no TAB between source and target: &quot;%1&quot;</source>
        <translation>源句与目标句之间没有 TAB：“%1”</translation>
    </message>
    <message>
        <source>both sides empty</source>
        <translation>两边都为空</translation>
    </message>
    <message>
        <source>empty source</source>
        <translation>源句为空</translation>
    </message>
    <message>
        <source>empty target</source>
        <translation>目标句为空</translation>
    </message>
    <message>
        <source>%1 characters in one side, over the limit of %2</source>
        <translation>一边有 %1 个字符，超过上限 %2</translation>
    </message>
    <message>
        <source>%1: file holds no text</source>
        <translation>%1：文件中没有文本</translation>
    </message>
    <message>
        <source>%1: no usable sentence pair (%2)</source>
        <translation>%1：没有可用的句对（%2）</translation>
    </message>
    <message>
        <source>held out of %1</source>
        <translation>从 %1 中留出</translation>
    </message>
    <message>
        <source>train: %1</source>
        <translation>训练集：%1</translation>
    </message>
    <message>
        <source>valid (%1): %2</source>
        <translation>验证集（%1）：%2</translation>
    </message>
    <message>
        <source>vocabularies: source %1 (%2), target %3 (%4)</source>
        <translation>词表：源语言 %1（%2），目标语言 %3（%4）</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>…… 还有 %1 条</translation>
    </message>
    <message>
        <source>strict: %1 has pairs that do not fit</source>
        <translation>严格模式：%1 中有不合格的句对</translation>
    </message>
    <message>
        <source>no usable sentence pair in %1</source>
        <translation>%1 中没有可用的句对</translation>
    </message>
    <message>
        <source>the vocabularies built from the data differ from the checkpoint&apos;s: the corpus file changed since the checkpoint was written</source>
        <translation>由数据构建的词表与检查点中的不同：写入检查点之后语料文件被修改过</translation>
    </message>
    <message>
        <source>the training pairs (%1) differ from those the checkpoint was trained on (%2): the corpus file changed</source>
        <translation>训练句对（%1）与检查点训练时的（%2）不同：语料文件被修改过</translation>
    </message>
    <message>
        <source>--%1 takes two whole numbers, source,target</source>
        <translation>--%1 需要两个整数：源,目标</translation>
    </message>
    <message>
        <source>--anki-direction must be to-english or from-english</source>
        <translation>--anki-direction 必须是 to-english 或 from-english</translation>
    </message>
    <message>
        <source>--%1 must be cjk-char or word, or a subword model bpe:N or unigram:N (N from %2 to %3)</source>
        <translation>--%1 必须是 cjk-char 或 word，或子词模型 bpe:N 或 unigram:N（N 从 %2 到 %3）</translation>
    </message>
    <message>
        <source>--%1 is not an option of the corpus</source>
        <translation>--%1 不是语料的选项</translation>
    </message>
    <message>
        <source>recorded argument &apos;%1&apos; is not an option of a corpus run</source>
        <translation>记录的参数“%1”不是语料训练的选项</translation>
    </message>
    <message>
        <source>recorded option --%1 has no value</source>
        <translation>记录的选项 --%1 没有值</translation>
    </message>
    <message>
        <source>recorded --%1 &apos;%2&apos; is not a finite number in [%3, %4]</source>
        <translation>记录的 --%1“%2”不是 [%3, %4] 内的有限数</translation>
    </message>
    <message>
        <source>recorded --seed &apos;%1&apos; is not a whole number</source>
        <translation>记录的 --seed“%1”不是整数</translation>
    </message>
    <message>
        <source>no training file (--data) is recorded</source>
        <translation>没有记录训练文件（--data）</translation>
    </message>
</context>
<context>
    <name>as::CorpusActions</name>
    <message>
        <source>Open &amp;corpus…</source>
        <translation>打开语料库(&amp;C)…</translation>
    </message>
    <message>
        <source>Train on your own parallel corpus: a TSV file (source&lt;TAB&gt;target) or a manythings.org Anki file (Ctrl+Shift+O)</source>
        <translation>用你自己的平行语料库训练：TSV 文件（源句&lt;TAB&gt;目标句）或 manythings.org 的 Anki 文件（Ctrl+Shift+O）</translation>
    </message>
    <message>
        <source>Open corpus</source>
        <translation>打开语料库</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Corpus file</source>
        <translation>语料库文件</translation>
    </message>
    <message>
        <source>Corpora (*.tsv *.txt);;All files (*)</source>
        <translation>语料库 (*.tsv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>source&lt;TAB&gt;target per line, or an Anki file</source>
        <translation>每行 源句&lt;TAB&gt;目标句，或一个 Anki 文件</translation>
    </message>
    <message>
        <source>optional: else 2 % of the training pairs are held out</source>
        <translation>可选：否则留出 2 % 的训练句对用于验证</translation>
    </message>
    <message>
        <source>the other language into English</source>
        <translation>另一种语言译成英语</translation>
    </message>
    <message>
        <source>English into the other language</source>
        <translation>英语译成另一种语言</translation>
    </message>
    <message>
        <source>manythings.org Anki files hold English&lt;TAB&gt;other&lt;TAB&gt;attribution</source>
        <translation>manythings.org 的 Anki 文件每行为 英语&lt;TAB&gt;另一种语言&lt;TAB&gt;出处</translation>
    </message>
    <message>
        <source>Training file</source>
        <translation>训练文件</translation>
    </message>
    <message>
        <source>Validation file</source>
        <translation>验证文件</translation>
    </message>
    <message>
        <source>Anki files</source>
        <translation>Anki 文件</translation>
    </message>
    <message>
        <source>The corpus is trained with the corpus recipe (Settings shows and changes it); the current session is replaced.</source>
        <translation>语料库按语料库配方训练（可在“设置”中查看和修改）；当前会话将被替换。</translation>
    </message>
    <message>
        <source>Reading the corpus was cancelled</source>
        <translation>已取消读取语料库</translation>
    </message>
    <message>
        <source>Reading %1 and building the vocabularies…</source>
        <translation>正在读取 %1 并构建词表…</translation>
    </message>
    <message>
        <source>%1 cannot be continued: %2</source>
        <translation>无法继续 %1：%2</translation>
    </message>
    <message>
        <source>Where is the corpus?</source>
        <translation>语料库在哪里？</translation>
    </message>
    <message>
        <source>%1 was trained on %2, which is not there any more. Point to it to continue training; until then the model is shown as it was saved.</source>
        <translation>%1 是在 %2 上训练的，但该文件已不在原处。指出它的位置即可继续训练；在此之前，模型按保存时的状态显示。</translation>
    </message>
    <message>
        <source>Locate…</source>
        <translation>定位…</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>暂不</translation>
    </message>
    <message>
        <source>Where is %1?</source>
        <translation>%1 在哪里？</translation>
    </message>
    <message>
        <source>The corpus of %1 is not at %2</source>
        <translation>%1 的语料库不在 %2</translation>
    </message>
    <message>
        <source>Reading the corpus of %1 to continue its training…</source>
        <translation>正在读取 %1 的语料库以继续训练…</translation>
    </message>
    <message>
        <source>%1 was not opened: %2</source>
        <translation>未打开 %1：%2</translation>
    </message>
    <message>
        <source>Training of %1 cannot continue on %2: %3</source>
        <translation>%1 无法在 %2 上继续训练：%3</translation>
    </message>
    <message>
        <source>Corpus opened</source>
        <translation>已打开语料库</translation>
    </message>
    <message numerus="yes">
        <source>

%n line(s) or pair(s) left out: see the details.</source>
        <translation>
            <numerusform>

有 %n 行或句对被略去：请查看详细信息。</numerusform>
        </translation>
    </message>
    <message>
        <source>Opened the corpus %1: %2</source>
        <translation>已打开语料库 %1：%2</translation>
    </message>
    <message>
        <source>Fine-tune</source>
        <translation>微调</translation>
    </message>
    <message>
        <source>Reading %1 with the model&apos;s tokenisers…</source>
        <translation>正在用模型的分词器读取 %1…</translation>
    </message>
    <message>
        <source>Fine-tuning %1 on %2: %3</source>
        <translation>正在 %2 上微调 %1：%3</translation>
    </message>
</context>
<context>
    <name>as::Dataset</name>
    <message>
        <source>the source has no token</source>
        <translation>源序列没有词元</translation>
    </message>
    <message>
        <source>the target has no token</source>
        <translation>目标序列没有词元</translation>
    </message>
    <message>
        <source>the %1 has %2 tokens, over max_len %3</source>
        <translation>%1序列有 %2 个词元，超过 max_len %3</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源</translation>
    </message>
    <message>
        <source>target</source>
        <translation>目标</translation>
    </message>
    <message numerus="yes">
        <source>%n pairs (%1 skipped: %2 too long, %3 empty); source %4 tokens, %5 unknown (%6%); target %7 tokens, %8 unknown (%9%)</source>
        <translation>
            <numerusform>%n 个句对（跳过 %1 个：%2 个过长，%3 个为空）；源序列 %4 个词元，%5 个未知（%6%）；目标序列 %7 个词元，%8 个未知（%9%）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 tokeniser: %2</source>
        <translation>%1分词器：%2</translation>
    </message>
    <message>
        <source>shared tokeniser: %1</source>
        <translation>共享分词器：%1</translation>
    </message>
</context>
<context>
    <name>as::File</name>
    <message>
        <source>is a folder, not a file</source>
        <translation>是文件夹，不是文件</translation>
    </message>
    <message>
        <source>is not a regular file (a pipe, a device or a socket cannot be read as one)</source>
        <translation>不是普通文件（管道、设备或套接字不能作为文件读取）</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>as::FileActions</name>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Continue a saved session: model, optimiser, history (Ctrl+O)</source>
        <translation>继续一个已保存的会话：模型、优化器、历史（Ctrl+O）</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Import weights…</source>
        <translation>导入权重(&amp;I)…</translation>
    </message>
    <message>
        <source>Look inside a model trained elsewhere: a .safetensors weight file, e.g. from PyTorch (Ctrl+I)</source>
        <translation>查看在别处训练的模型：一个 .safetensors 权重文件，例如来自 PyTorch（Ctrl+I）</translation>
    </message>
    <message>
        <source>&amp;Export weights…</source>
        <translation>导出权重(&amp;E)…</translation>
    </message>
    <message>
        <source>Write the model as a .safetensors weight file that PyTorch can read (Ctrl+E)</source>
        <translation>将模型写成 PyTorch 可读取的 .safetensors 权重文件（Ctrl+E）</translation>
    </message>
    <message>
        <source>Exported the weights to %1</source>
        <translation>已将权重导出到 %1</translation>
    </message>
    <message>
        <source>Saved %1 at step %2</source>
        <translation>已保存 %1（第 %2 步）</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>打开检查点</translation>
    </message>
    <message>
        <source>Attention Studio checkpoints (*.%1);;All files (*)</source>
        <translation>Attention Studio 检查点 (*.%1);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save checkpoint</source>
        <translation>保存检查点</translation>
    </message>
    <message>
        <source>Attention Studio checkpoints (*.%1)</source>
        <translation>Attention Studio 检查点 (*.%1)</translation>
    </message>
    <message>
        <source>Import weights</source>
        <translation>导入权重</translation>
    </message>
    <message>
        <source>Weight files (*.safetensors);;All files (*)</source>
        <translation>权重文件 (*.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 was not opened: %2</source>
        <translation>未打开 %1：%2</translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation>未导入 %1：%2</translation>
    </message>
    <message>
        <source>%1 does not say how many attention heads the model has (d_model = %2).
Heads:</source>
        <translation>%1 没有说明模型有多少个注意力头（d_model = %2）。
头数：</translation>
    </message>
    <message>
        <source>%1 has no vocabularies. Choose vocabulary files (one token per line, in id order, starting &lt;pad&gt; &lt;s&gt; &lt;/s&gt; &lt;unk&gt;)?

No: name the tokens tok4, tok5, … and type sentences as those names.</source>
        <translation>%1 没有词表。要选择词表文件吗（每行一个词元，按 id 顺序，以 &lt;pad&gt; &lt;s&gt; &lt;/s&gt; &lt;unk&gt; 开头）？

否：词元将命名为 tok4、tok5、…，输入句子时请使用这些名字。</translation>
    </message>
    <message>
        <source>Source vocabulary</source>
        <translation>源词表</translation>
    </message>
    <message>
        <source>Target vocabulary</source>
        <translation>目标词表</translation>
    </message>
    <message>
        <source>Export weights</source>
        <translation>导出权重</translation>
    </message>
    <message>
        <source>Weight files (*.safetensors)</source>
        <translation>权重文件 (*.safetensors)</translation>
    </message>
    <message>
        <source>Restore the autosaved session?</source>
        <translation>恢复自动保存的会话？</translation>
    </message>
    <message>
        <source>Attention Studio did not close normally last time. Its session was autosaved at %1. Restore it?</source>
        <translation>Attention Studio 上次没有正常关闭。它的会话已于 %1 自动保存。要恢复吗？</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Open &amp;model folder…</source>
        <translation>打开模型文件夹(&amp;M)…</translation>
    </message>
    <message>
        <source>Open a pretrained model as the Hugging Face Hub has it: a folder with config.json, model.safetensors or pytorch_model.bin, vocab.json and merges.txt (GPT-2) (Ctrl+Alt+O)</source>
        <translation>按 Hugging Face Hub 上的格式打开预训练模型：包含 config.json、model.safetensors 或 pytorch_model.bin、vocab.json 和 merges.txt 的文件夹（GPT-2）（Ctrl+Alt+O）</translation>
    </message>
    <message>
        <source>Open model folder (Hugging Face Hub)</source>
        <translation>打开模型文件夹（Hugging Face Hub）</translation>
    </message>
    <message>
        <source>%1 was not opened: it has no config.json (a model folder from the Hugging Face Hub has one)</source>
        <translation>未打开 %1：其中没有 config.json（来自 Hugging Face Hub 的模型文件夹都有）</translation>
    </message>
</context>
<context>
    <name>as::FineTuneDialog</name>
    <message>
        <source>Fine-tune %1</source>
        <translation>微调 %1</translation>
    </message>
    <message>
        <source>%1 (%2 parameters) trains on a text from its own weights, the text cut with its own tokeniser; every training view follows it. A model this size takes seconds a step on a few cores: the status bar says how many. Fewer windows a batch make each step shorter.</source>
        <translation>%1（%2 个参数）从它自己的权重出发在一段文本上训练，文本用它自己的分词器切分；每个训练视图都会跟随。这样大小的模型在几个核心上每步要几秒：状态栏会显示具体秒数。每批的窗口越少，每步越短。</translation>
    </message>
    <message>
        <source>English sentences of the bundled corpus (lm-en)</source>
        <translation>内置语料的英文句子（lm-en）</translation>
    </message>
    <message>
        <source>Chinese sentences of the bundled corpus (lm-zh)</source>
        <translation>内置语料的中文句子（lm-zh）</translation>
    </message>
    <message>
        <source>&amp;Text:</source>
        <translation>文本(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Windows a batch:</source>
        <translation>每批窗口数(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Steps:</source>
        <translation>步数(&amp;S)：</translation>
    </message>
    <message>
        <source>The learning rate at the end of the warm-up (100 steps), then falling as 1/√step (the Noam schedule)</source>
        <translation>预热（100 步）结束时的学习率，之后按 1/√步数 下降（Noam 学习率调度）</translation>
    </message>
    <message>
        <source>Peak learning &amp;rate:</source>
        <translation>峰值学习率(&amp;R)：</translation>
    </message>
    <message>
        <source>of %1 tokens: %2 tokens a step</source>
        <translation>每个 %1 个词元：每步 %2 个词元</translation>
    </message>
    <message>
        <source>Fine-tune</source>
        <translation>微调</translation>
    </message>
    <message>
        <source>A text file, a sentence or paragraph a line…</source>
        <translation>文本文件，每行一个句子或段落…</translation>
    </message>
    <message>
        <source>Text to fine-tune on</source>
        <translation>用于微调的文本</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 (%2 parameters) trains on sentence pairs from its own weights, both sides cut with its own tokenisers; every training view follows it, and each validation scores its translations (BLEU). A model this size takes seconds a step on a few cores: the status bar says how many. Fewer tokens a batch make each step shorter.</source>
        <translation>%1（%2 个参数）从它自己的权重出发在句对上训练，两边都用它自己的分词器切分；每个训练视图都跟着它，每次验证都为它的译文打分（BLEU）。这样大的模型在几个核上每步要几秒：状态栏会显示多少秒。每批的词元越少，每步越短。</translation>
    </message>
    <message>
        <source>Chinese → English pairs of the bundled corpus (zh-en)</source>
        <translation>自带语料的中文 → 英文句对（zh-en）</translation>
    </message>
    <message>
        <source>Target &amp;tokens a batch:</source>
        <translation>每批目标词元数(&amp;T)：</translation>
    </message>
    <message>
        <source>sentence pairs up to this many target tokens a step</source>
        <translation>每步的句对，目标词元数至多为此</translation>
    </message>
    <message>
        <source>A corpus file of sentence pairs…</source>
        <translation>一个句对语料文件…</translation>
    </message>
    <message>
        <source>Sentence pairs to fine-tune on</source>
        <translation>用于微调的句对</translation>
    </message>
    <message>
        <source>Corpora: source&lt;TAB&gt;target a line, or a manythings.org file (*.tsv *.txt);;All files (*)</source>
        <translation>语料：每行“源&lt;TAB&gt;目标”，或 manythings.org 的文件 (*.tsv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Pairs:</source>
        <translation>句对(&amp;P)：</translation>
    </message>
</context>
<context>
    <name>as::HeadService</name>
    <message>
        <source>Copying the current weights…</source>
        <translation>正在复制当前权重…</translation>
    </message>
    <message>
        <source>Pruning curve: %1 of %2 points</source>
        <translation>剪枝曲线：第 %1 / %2 个点</translation>
    </message>
    <message>
        <source>Scoring heads: %1 of %2 passes</source>
        <translation>正在给头打分：第 %1 / %2 遍</translation>
    </message>
    <message>
        <source>Translating the validation pairs with the mutes…</source>
        <translation>正在用静音后的头翻译验证句对…</translation>
    </message>
    <message>
        <source>Translating the validation pairs without them…</source>
        <translation>正在不静音地翻译验证句对…</translation>
    </message>
    <message>
        <source>No validation pairs to score heads on: train a task or a corpus, or choose a corpus file with Score on…</source>
        <translation>没有可用于给头打分的验证句对：请训练一个任务或语料库，或用“在…上打分”选择一个语料文件</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>No pair of %1 fits the model&apos;s vocabularies and length.</source>
        <translation>%1 中没有适合该模型词表和长度的句对。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>as::HeadsController</name>
    <message>
        <source>Scored at step %1.</source>
        <translation>已在第 %1 步打分。</translation>
    </message>
    <message>
        <source>Mutes evaluated at step %1.</source>
        <translation>已在第 %1 步评估静音效果。</translation>
    </message>
    <message>
        <source>Pruning curve at step %1.</source>
        <translation>第 %1 步的剪枝曲线。</translation>
    </message>
    <message>
        <source>Score heads first: the curve masks them least important first.</source>
        <translation>请先给头打分：曲线按重要性从低到高依次掩码各头。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Scored at step %1 on %2 (%3 pairs).</source>
        <translation>已在第 %1 步于 %2 上打分（%3 个句对）。</translation>
    </message>
    <message>
        <source>Mutes evaluated at step %1 on %2 (%3 pairs).</source>
        <translation>已在第 %1 步于 %2 上评估静音效果（%3 个句对）。</translation>
    </message>
    <message>
        <source>Score heads on a corpus</source>
        <translation>在语料库上给头打分</translation>
    </message>
    <message>
        <source>Corpora: source&lt;TAB&gt;target per line, or an Anki file (*.tsv *.txt);;All files (*)</source>
        <translation>语料库：每行 源句&lt;TAB&gt;目标句，或 Anki 文件 (*.tsv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>This model has no validation pairs and its file names no built-in task: choose a corpus with Score on…</source>
        <translation>该模型没有验证句对，其文件也没有注明内置任务：请用“在…上打分”选择一个语料库</translation>
    </message>
    <message>
        <source>the %1 validation split</source>
        <translation>%1 的验证集</translation>
    </message>
    <message>
        <source>%1 was not read: %2</source>
        <translation>未能读取 %1：%2</translation>
    </message>
    <message>
        <source>no sentence pairs</source>
        <translation>没有句对</translation>
    </message>
</context>
<context>
    <name>as::HelpActions</name>
    <message>
        <source>&amp;User guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <source>The user guide&apos;s page of the view shown (%1)</source>
        <translation>当前视图在用户指南中的页面（%1）</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Copy diagnostics</source>
        <translation>复制诊断信息(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the versions and the machine&apos;s facts, for a bug report</source>
        <translation>复制版本号和本机信息，用于报告问题</translation>
    </message>
    <message>
        <source>&amp;About Attention Studio</source>
        <translation>关于 Attention Studio(&amp;A)</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>用户指南</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>Anywhere</source>
        <translation>任意位置</translation>
    </message>
    <message>
        <source>Keyboard shortcuts — Attention Studio</source>
        <translation>键盘快捷键 — Attention Studio</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Does</source>
        <translation>作用</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Matrix products</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Engine compiled for</source>
        <translation>引擎编译目标</translation>
    </message>
    <message>
        <source>Attention Studio</source>
        <translation>Attention Studio</translation>
    </message>
    <message>
        <source>Train a Transformer and watch it learn.</source>
        <translation>训练一个 Transformer，看着它学习。</translation>
    </message>
    <message>
        <source>Copyright 2026 The Attention Studio authors.</source>
        <translation>版权所有 2026 Attention Studio 作者。</translation>
    </message>
    <message>
        <source>This program is free software under the GNU General Public License, version 3 or any later version (GPL-3.0-or-later), and comes with ABSOLUTELY NO WARRANTY. It uses Qt (LGPL-3.0), QCustomPlot (GPL-3.0), Eigen (MPL-2.0), OpenBLAS (BSD-3-Clause) and SentencePiece (Apache-2.0).</source>
        <translation>本程序是自由软件，依据 GNU 通用公共许可证第 3 版或（由你选择）任何更高版本（GPL-3.0-or-later）发布，不提供任何担保。它使用了 Qt（LGPL-3.0）、QCustomPlot（GPL-3.0）、Eigen（MPL-2.0）、OpenBLAS（BSD-3-Clause）和 SentencePiece（Apache-2.0）。</translation>
    </message>
    <message>
        <source>The zh-en corpus is made of sentences of the Tatoeba Project (&lt;a href=&quot;https://tatoeba.org&quot;&gt;tatoeba.org&lt;/a&gt;) by its contributors, each named on its line, under the licence CC BY 2.0 FR (&lt;a href=&quot;https://creativecommons.org/licenses/by/2.0/fr/&quot;&gt;creativecommons.org/licenses/by/2.0/fr&lt;/a&gt;), as packaged by &lt;a href=&quot;https://www.manythings.org/anki/&quot;&gt;manythings.org/anki&lt;/a&gt;.</source>
        <translation>zh-en 语料由 Tatoeba 项目（&lt;a href=&quot;https://tatoeba.org&quot;&gt;tatoeba.org&lt;/a&gt;）的贡献者所写的句子组成，每行都注明了其贡献者，采用 CC BY 2.0 FR 许可（&lt;a href=&quot;https://creativecommons.org/licenses/by/2.0/fr/&quot;&gt;creativecommons.org/licenses/by/2.0/fr&lt;/a&gt;），由 &lt;a href=&quot;https://www.manythings.org/anki/&quot;&gt;manythings.org/anki&lt;/a&gt; 整理打包。</translation>
    </message>
    <message>
        <source>About Attention Studio</source>
        <translation>关于 Attention Studio</translation>
    </message>
    <message>
        <source>Copied the diagnostics to the clipboard: paste them into your bug report</source>
        <translation>诊断信息已复制到剪贴板：请粘贴到你的问题报告中</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
    <message>
        <source>The %1 menu</source>
        <translation>%1菜单</translation>
    </message>
</context>
<context>
    <name>as::History</name>
    <message>
        <source>truncated in %1</source>
        <translation>在%1处被截断</translation>
    </message>
    <message>
        <source>%1: %2 entries cannot fit in the %3 bytes left</source>
        <translation>%1：%2 个条目放不进剩余的 %3 字节</translation>
    </message>
    <message>
        <source>%1: %2 tokens cannot fit in the bytes left</source>
        <translation>%1：%2 个词元放不进剩余的字节</translation>
    </message>
    <message>
        <source>%1: token %2 runs past the end</source>
        <translation>%1：词元 %2 超出了末尾</translation>
    </message>
    <message>
        <source>%1: token %2 is not valid UTF-8</source>
        <translation>%1：词元 %2 不是有效的 UTF-8</translation>
    </message>
    <message>
        <source>%1: %2 layers, but the model has %3</source>
        <translation>%1：%2 层，但模型有 %3 层</translation>
    </message>
    <message>
        <source>%1 layer %2: a [%3, %4] map where heads x queries by keys is [%5, %6]</source>
        <translation>%1 第 %2 层：一个 [%3, %4] 的图，而头数 × 查询 × 键为 [%5, %6]</translation>
    </message>
    <message>
        <source>%1 layer %2: weight (%3, %4) is %5, not a probability</source>
        <translation>%1 第 %2 层：权重 (%3, %4) 为 %5，不是概率</translation>
    </message>
    <message>
        <source>%1: id %2 at %3 is outside the vocabulary of %4</source>
        <translation>%1：位于 %3 的 id %2 超出了大小为 %4 的词表</translation>
    </message>
    <message>
        <source>the loss points</source>
        <translation>损失点</translation>
    </message>
    <message>
        <source>the validation points</source>
        <translation>验证点</translation>
    </message>
    <message>
        <source>validation point at step %1: BLEU %2 is not in [0, 100]</source>
        <translation>第 %1 步的验证点：BLEU %2 不在 [0, 100] 内</translation>
    </message>
    <message>
        <source>the attention records</source>
        <translation>注意力记录</translation>
    </message>
    <message>
        <source>attention record %1</source>
        <translation>注意力记录 %1</translation>
    </message>
    <message>
        <source>%1: %2 heads, but the model has %3</source>
        <translation>%1：%2 个头，但模型有 %3 个</translation>
    </message>
    <message>
        <source> source tokens</source>
        <translation>的源词元</translation>
    </message>
    <message>
        <source> target tokens</source>
        <translation>的目标词元</translation>
    </message>
    <message>
        <source> encoder self-attention</source>
        <translation>的编码器自注意力</translation>
    </message>
    <message>
        <source> decoder self-attention</source>
        <translation>的解码器自注意力</translation>
    </message>
    <message>
        <source> cross-attention</source>
        <translation>的交叉注意力</translation>
    </message>
    <message>
        <source>the last batch</source>
        <translation>最后一个批次</translation>
    </message>
    <message>
        <source>the last batch: flag %1 is neither 0 nor 1</source>
        <translation>最后一个批次：标志 %1 既不是 0 也不是 1</translation>
    </message>
    <message>
        <source>%1: negative shape [%2, %3, %4]</source>
        <translation>%1：形状 [%2, %3, %4] 为负</translation>
    </message>
    <message>
        <source>%1: target vocabulary of %2, but the model&apos;s is %3</source>
        <translation>%1：目标词表大小为 %2，但模型的是 %3</translation>
    </message>
    <message>
        <source>%1: label smoothing %2 is not in [0, 1)</source>
        <translation>%1：标签平滑 %2 不在 [0, 1) 内</translation>
    </message>
    <message>
        <source>%1: a [%2, %3, %4] batch does not fit in the %5 bytes left</source>
        <translation>%1：[%2, %3, %4] 的批次放不进剩余的 %5 字节</translation>
    </message>
    <message>
        <source> source</source>
        <translation>的源序列</translation>
    </message>
    <message>
        <source> decoder input</source>
        <translation>的解码器输入</translation>
    </message>
    <message>
        <source> target</source>
        <translation>的目标序列</translation>
    </message>
    <message>
        <source>%1 unexpected bytes after the last batch</source>
        <translation>最后一个批次之后多出 %1 字节</translation>
    </message>
    <message>
        <source>validation point at step %1: NLL %2 is not a finite number &gt;= 0</source>
        <translation>第 %1 步的验证点：NLL %2 不是 ≥ 0 的有限数</translation>
    </message>
    <message>
        <source>%1: value %2 is %3, not in [%4, %5]</source>
        <translation>%1：值 %2 为 %3，不在 [%4, %5] 之内</translation>
    </message>
    <message>
        <source>the induction records</source>
        <translation>归纳记录</translation>
    </message>
    <message>
        <source>induction record %1</source>
        <translation>归纳记录 %1</translation>
    </message>
    <message>
        <source>%1: %2 layers of %3 heads, but the model has %4 of %5</source>
        <translation>%1：%2 层、每层 %3 个头，但模型有 %4 层、每层 %5 个头</translation>
    </message>
    <message>
        <source>%1: %2 masked heads of %3</source>
        <translation>%1：%2 个被屏蔽的头，但只有 %3 个头</translation>
    </message>
    <message>
        <source>%1: masked head %2 is not a head after the previous one</source>
        <translation>%1：被屏蔽的头 %2 不是排在前一个之后的头</translation>
    </message>
    <message>
        <source>%1: step %2 does not follow step %3</source>
        <translation>%1：第 %2 步不在第 %3 步之后</translation>
    </message>
</context>
<context>
    <name>as::HubModel</name>
    <message>
        <source>attention scaled by 1/(layer + 1)</source>
        <translation>按 1/(层号 + 1) 缩放的注意力</translation>
    </message>
    <message>
        <source>attention reordered and upcast</source>
        <translation>重排并提升精度的注意力</translation>
    </message>
    <message>
        <source>cross-attention in GPT-2&apos;s blocks</source>
        <translation>GPT-2 块中的交叉注意力</translation>
    </message>
    <message>
        <source>attention scores not scaled by 1/√head_dim</source>
        <translation>未按 1/√head_dim 缩放的注意力分数</translation>
    </message>
    <message>
        <source>a head not tied to the token embedding</source>
        <translation>未与词嵌入绑定的输出层</translation>
    </message>
    <message>
        <source>config.json has no &apos;%1&apos;</source>
        <translation>config.json 中没有“%1”</translation>
    </message>
    <message>
        <source>config.json: &apos;%1&apos; must be a whole number ≥ 1</source>
        <translation>config.json：“%1”必须是 ≥ 1 的整数</translation>
    </message>
    <message>
        <source>config.json: activation_function &apos;%1&apos; is not GPT-2&apos;s tanh GELU (gelu_new), the one this program computes</source>
        <translation>config.json：activation_function“%1”不是本程序所计算的 GPT-2 的 tanh GELU（gelu_new）</translation>
    </message>
    <message>
        <source>config.json: %1 = %2 asks for %3, which this program does not compute</source>
        <translation>config.json：%1 = %2 要求%3，本程序不计算这种结构</translation>
    </message>
    <message>
        <source>config.json: n_embd %1 is not a multiple of n_head %2</source>
        <translation>config.json：n_embd %1 不是 n_head %2 的倍数</translation>
    </message>
    <message>
        <source>config.json: eos_token_id %1 is outside the vocabulary of %2</source>
        <translation>config.json：eos_token_id %1 超出了大小为 %2 的词表</translation>
    </message>
    <message>
        <source>%1 is %2 but this program uses one dropout rate: resid_pdrop&apos;s, %3</source>
        <translation>%1 为 %2，但本程序只用一个 dropout 比率：resid_pdrop 的 %3</translation>
    </message>
    <message>
        <source>config.json: %1</source>
        <translation>config.json：%1</translation>
    </message>
    <message>
        <source>%1: neither model.safetensors nor pytorch_model.bin is there</source>
        <translation>%1：其中既没有 model.safetensors，也没有 pytorch_model.bin</translation>
    </message>
    <message>
        <source>%1: tensor &apos;%2&apos; is missing</source>
        <translation>%1：缺少张量“%2”</translation>
    </message>
    <message>
        <source>%1: lm_head.weight differs from wte.weight: GPT-2&apos;s head is the token embedding (tied), and this program computes only that</source>
        <translation>%1：lm_head.weight 与 wte.weight 不同：GPT-2 的输出层就是词嵌入（权重绑定），本程序只计算这种情形</translation>
    </message>
    <message>
        <source>%1: a weight is not a finite number</source>
        <translation>%1：有一个权重不是有限数</translation>
    </message>
    <message>
        <source>%1: the tokenizer has %2 entries with &lt;|endoftext|&gt; at %3; config.json says %4 and %5</source>
        <translation>%1：分词器有 %2 个条目，&lt;|endoftext|&gt; 位于 %3；而 config.json 说是 %4 和 %5</translation>
    </message>
    <message>
        <source>%1 is a folder that is not empty: choose a new one</source>
        <translation>%1 是一个非空文件夹：请选择一个新的文件夹</translation>
    </message>
    <message>
        <source>&lt;s&gt;&apos;s embedding row differs from &lt;/s&gt;&apos;s (fine-tuning moved them apart); the Hub&apos;s layout keeps &lt;/s&gt;&apos;s, as &lt;|endoftext|&gt;</source>
        <translation>&lt;s&gt; 的嵌入行与 &lt;/s&gt; 的不同（微调使它们分开了）；Hub 的格式只保留 &lt;/s&gt; 的，作为 &lt;|endoftext|&gt;</translation>
    </message>
    <message>
        <source>cannot make the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>cannot replace the empty folder %1</source>
        <translation>无法替换空文件夹 %1</translation>
    </message>
    <message>
        <source>cannot rename %1 to %2</source>
        <translation>无法把 %1 重命名为 %2</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; is in the file twice (with and without &apos;%2&apos;)</source>
        <translation>张量“%1”在文件中出现了两次（带与不带“%2”）</translation>
    </message>
    <message>
        <source>config.json: model_type &apos;%1&apos; is not one this program opens (gpt2, marian)</source>
        <translation>config.json：model_type“%1”不是本程序能打开的类型（gpt2、marian）</translation>
    </message>
    <message>
        <source>config.json: activation_function &apos;%1&apos; is not one this program computes (swish, relu, gelu_new)</source>
        <translation>config.json：activation_function“%1”不是本程序能计算的激活函数（swish、relu、gelu_new）</translation>
    </message>
    <message>
        <source>pre-norm layers (Marian&apos;s are post-norm)</source>
        <translation>前置归一化（Pre-Norm）的层（Marian 的是后置归一化（Post-Norm））</translation>
    </message>
    <message>
        <source>a LayerNorm of the embeddings</source>
        <translation>对嵌入做层归一化</translation>
    </message>
    <message>
        <source>a LayerNorm after each stack</source>
        <translation>每个层栈之后的层归一化</translation>
    </message>
    <message>
        <source>token embeddings not scaled by √d_model</source>
        <translation>不乘以 √d_model 的词元嵌入</translation>
    </message>
    <message>
        <source>learned positions in place of the sinusoids</source>
        <translation>以可学习的位置代替正弦位置编码</translation>
    </message>
    <message>
        <source>a source vocabulary apart from the target&apos;s</source>
        <translation>与目标词表分开的源词表</translation>
    </message>
    <message>
        <source>config.json: %1 %2 differs from %3 %4; this program&apos;s encoder and decoder have the same</source>
        <translation>config.json：%1 %2 与 %3 %4 不同；本程序的编码器与解码器二者相同</translation>
    </message>
    <message>
        <source>config.json: decoder_vocab_size %1 differs from vocab_size %2: a target vocabulary of its own, which this program does not open</source>
        <translation>config.json：decoder_vocab_size %1 与 vocab_size %2 不同：这是单独的目标词表，本程序不能打开</translation>
    </message>
    <message>
        <source>config.json: %1 must be an id of the vocabulary (0 … %2)</source>
        <translation>config.json：%1 必须是词表中的编号（0 … %2）</translation>
    </message>
    <message>
        <source>config.json: pad_token_id and eos_token_id are both %1</source>
        <translation>config.json：pad_token_id 与 eos_token_id 都是 %1</translation>
    </message>
    <message>
        <source>config.json has %1, but this program uses one dropout rate in training: dropout&apos;s, %2</source>
        <translation>config.json 中有 %1，但本程序训练时只用一个 dropout（随机失活）比例：dropout 的 %2</translation>
    </message>
    <message>
        <source>%1: cannot read %2 (%3)</source>
        <translation>%1：无法读取 %2（%3）</translation>
    </message>
    <message>
        <source>%1 is %2 bytes, over the %3 this program reads</source>
        <translation>%1 有 %2 字节，超过本程序读取的上限 %3</translation>
    </message>
    <message>
        <source>%1: %2 is not a JSON object (%3)</source>
        <translation>%1：%2 不是 JSON 对象（%3）</translation>
    </message>
    <message>
        <source>%1 has %2 pieces; config.json&apos;s vocab_size is %3</source>
        <translation>%1 有 %2 个片段；config.json 的 vocab_size 是 %3</translation>
    </message>
    <message>
        <source>%1: the id of &apos;%2&apos; is not one of 0 … %3 (the embedding&apos;s rows)</source>
        <translation>%1：“%2”的编号不在 0 … %3 之中（嵌入矩阵的行）</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; and &apos;%3&apos; have the same id %4</source>
        <translation>%1：“%2”与“%3”的编号同为 %4</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is at %3; config.json says %4</source>
        <translation>%1：“%2”的编号是 %3；config.json 说是 %4</translation>
    </message>
    <message>
        <source>%1 has no &apos;&lt;unk&gt;&apos;</source>
        <translation>%1 中没有“&lt;unk&gt;”</translation>
    </message>
    <message>
        <source>%1: tensor &apos;%2&apos; is %3, %5 of this config.json has %4</source>
        <translation>%1：张量“%2”的形状是 %3，按此 config.json 的 %5 应为 %4</translation>
    </message>
    <message>
        <source>%1: %2 differs from model.shared.weight: Marian&apos;s encoder, decoder and head share one embedding, and this program computes only that</source>
        <translation>%1：%2 与 model.shared.weight 不同：Marian 的编码器、解码器与输出层共用一个嵌入，本程序只计算这种情形</translation>
    </message>
    <message>
        <source>%1: %2 is not Marian&apos;s sinusoidal table (it differs by up to %3): this program computes the positions and does not learn them</source>
        <translation>%1：%2 不是 Marian 的正弦位置编码表（最多相差 %3）：本程序计算位置编码，不学习它们</translation>
    </message>
    <message>
        <source>%1: tensor &apos;%2&apos; is not part of %4 of this config.json (%3 layers)</source>
        <translation>%1：张量“%2”不属于此 config.json 的 %4（%3 层）</translation>
    </message>
    <message>
        <source>only a model opened from a GPT-2 or Marian folder (or fine-tuned from one) can be written in the Hub&apos;s layout: this one is %1</source>
        <translation>只有从 GPT-2 或 Marian 文件夹打开的模型（或由其微调得到的模型）才能按 Hub 的格式写出：此模型为 %1</translation>
    </message>
    <message>
        <source>&lt;s&gt;&apos;s embedding row differs from &lt;pad&gt;&apos;s (fine-tuning moved it); the Hub&apos;s layout has one row for both, the pad token&apos;s, and keeps &lt;s&gt;&apos;s, where decoding starts</source>
        <translation>&lt;s&gt; 的嵌入行与 &lt;pad&gt; 的不同（微调移动了它）；Hub 的格式中两者共用一行，即填充词元的那一行，这里保留 &lt;s&gt; 的，因为解码从它开始</translation>
    </message>
    <message>
        <source>the vocabulary has a piece twice: it cannot be a vocab.json</source>
        <translation>词表中有重复的片段：它不能写成 vocab.json</translation>
    </message>
</context>
<context>
    <name>as::Interop</name>
    <message>
        <source>no tensor &apos;%1&apos;: not a weight file of this model (the parameter names are those of core/SPEC.md §6.1 and torch_ref.py)</source>
        <translation>没有张量“%1”：不是本模型的权重文件（参数名见 core/SPEC.md §6.1 和 torch_ref.py）</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has shape %2; it must be a matrix [rows, columns] of at most %3 each</source>
        <translation>张量“%1”的形状为 %2；它必须是每维至多 %3 的矩阵 [行, 列]</translation>
    </message>
    <message>
        <source>the %1 vocabulary given: %2</source>
        <translation>给定的%1词表：%2</translation>
    </message>
    <message>
        <source>the %1 vocabulary given lists %2 tokens but %3 has %4 rows (one per token id)</source>
        <translation>给定的%1词表列出 %2 个词元，但 %3 有 %4 行（每个词元 id 一行）</translation>
    </message>
    <message>
        <source>the file has no %1 vocabulary (__metadata__ &apos;%2&apos;): give one (one token per line, in id order, starting &lt;pad&gt; &lt;s&gt; &lt;/s&gt; &lt;unk&gt;) or ask for placeholder tokens</source>
        <translation>文件中没有%1词表（__metadata__ “%2”）：请提供一个（每行一个词元，按 id 顺序，以 &lt;pad&gt; &lt;s&gt; &lt;/s&gt; &lt;unk&gt; 开头），或使用占位词元</translation>
    </message>
    <message>
        <source>%1 vocabulary: %2 placeholder tokens (&lt;pad&gt; &lt;s&gt; &lt;/s&gt; &lt;unk&gt; tok4 … tok%3): the file has none</source>
        <translation>%1词表：%2 个占位词元（&lt;pad&gt; &lt;s&gt; &lt;/s&gt; &lt;unk&gt; tok4 … tok%3）：文件中没有词表</translation>
    </message>
    <message>
        <source>tensor &apos;pe&apos; is torch_ref.py&apos;s registered positional-encoding buffer, not a parameter (this program computes the sinusoid table itself): leave it out when saving, e.g. {k: v for k, v in model.state_dict().items() if k != &quot;pe&quot;}</source>
        <translation>张量“pe”是 torch_ref.py 注册的位置编码缓冲区，不是参数（本程序自己计算正弦表）：保存时请去掉它，例如 {k: v for k, v in model.state_dict().items() if k != &quot;pe&quot;}</translation>
    </message>
    <message>
        <source>format is &apos;%1&apos;; a weight file has &apos;%2&apos; or no format (a training checkpoint? export its weights first)</source>
        <translation>格式为“%1”；权重文件的格式为“%2”或没有格式（这是训练检查点？请先导出它的权重）</translation>
    </message>
    <message>
        <source>src_embed.weight is %1 wide but tgt_embed.weight is %2: both embeddings have d_model columns</source>
        <translation>src_embed.weight 宽 %1，但 tgt_embed.weight 宽 %2：两个嵌入都应有 d_model 列</translation>
    </message>
    <message>
        <source>__metadata__ &apos;config&apos; is not valid JSON: %1 at character %2</source>
        <translation>__metadata__ “config”不是有效的 JSON：第 %2 个字符处 %1</translation>
    </message>
    <message>
        <source>__metadata__ &apos;config&apos; must be a JSON object</source>
        <translation>__metadata__ “config”必须是 JSON 对象</translation>
    </message>
    <message>
        <source>config has &apos;layers&apos; (torch_ref.py&apos;s name); weight files name &apos;encoder_layers&apos; and &apos;decoder_layers&apos; (core/SPEC.md §7.1; scripts/torch_parity.py writes them)</source>
        <translation>config 含有“layers”（torch_ref.py 的名称）；权重文件使用“encoder_layers”和“decoder_layers”（core/SPEC.md §7.1；scripts/torch_parity.py 会写入它们）</translation>
    </message>
    <message>
        <source>config says %1 is %2 but the embedding has %3 rows</source>
        <translation>config 中 %1 为 %2，但嵌入有 %3 行</translation>
    </message>
    <message>
        <source>the number of attention heads is not in the file (the weights do not show it): it must be given</source>
        <translation>文件中没有注意力头数（权重无法体现）：必须给出</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源</translation>
    </message>
    <message>
        <source>target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>tokenizers: the file names none; using %1 → %2</source>
        <translation>分词器：文件中未指定；使用 %1 → %2</translation>
    </message>
    <message>
        <source>cannot open: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>not valid UTF-8</source>
        <translation>不是有效的 UTF-8</translation>
    </message>
    <message>
        <source>line %1 is empty (one token per line)</source>
        <translation>第 %1 行为空（每行一个词元）</translation>
    </message>
</context>
<context>
    <name>as::Lesson</name>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>must be a text or {&quot;en&quot;: …, &quot;zh_CN&quot;: …}</source>
        <translation>必须是文本或 {&quot;en&quot;: …, &quot;zh_CN&quot;: …}</translation>
    </message>
    <message>
        <source>unknown language (en or zh_CN)</source>
        <translation>未知语言（应为 en 或 zh_CN）</translation>
    </message>
    <message>
        <source>must be a text</source>
        <translation>必须是文本</translation>
    </message>
    <message>
        <source>missing (every text has an English one)</source>
        <translation>缺失（每段文本都要有英文版本）</translation>
    </message>
    <message>
        <source>must be a whole number from %1 to %2</source>
        <translation>必须是 %1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>must be a view name or {&quot;view&quot;: …, &quot;kind&quot;: …, &quot;layer&quot;: …, &quot;head&quot;: …}</source>
        <translation>必须是视图名或 {&quot;view&quot;: …, &quot;kind&quot;: …, &quot;layer&quot;: …, &quot;head&quot;: …}</translation>
    </message>
    <message>
        <source>unknown field</source>
        <translation>未知字段</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a view (%2)</source>
        <translation>“%1”不是视图（%2）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an attention kind (encoder.self, decoder.self, decoder.cross)</source>
        <translation>“%1”不是注意力类型（encoder.self、decoder.self、decoder.cross）</translation>
    </message>
    <message>
        <source>the model has %1 layers</source>
        <translation>模型只有 %1 层</translation>
    </message>
    <message>
        <source>the model has %1 heads</source>
        <translation>模型只有 %1 个头</translation>
    </message>
    <message>
        <source>%1 bytes; a lesson is at most %2</source>
        <translation>%1 字节；课程文件最多 %2 字节</translation>
    </message>
    <message>
        <source>not JSON (%1 at byte %2)</source>
        <translation>不是 JSON（第 %2 字节处：%1）</translation>
    </message>
    <message>
        <source>not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
    <message>
        <source>must be &quot;%1&quot;</source>
        <translation>必须是 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>%1 is newer than this program reads (%2): update Attention Studio</source>
        <translation>%1 比本程序能读取的版本（%2）新：请更新 Attention Studio</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a built-in task (%2)</source>
        <translation>“%1”不是内置任务（%2）</translation>
    </message>
    <message>
        <source>a reference goes with a probe</source>
        <translation>参考译文必须与探针句子一起给出</translation>
    </message>
    <message>
        <source>must be a list</source>
        <translation>必须是列表</translation>
    </message>
    <message>
        <source>must be {&quot;step&quot;: …, &quot;view&quot;: …, &quot;text&quot;: …}</source>
        <translation>必须是 {&quot;step&quot;: …, &quot;view&quot;: …, &quot;text&quot;: …}</translation>
    </message>
    <message>
        <source>%1 is not after the stop before it (%2)</source>
        <translation>%1 不在前一个停靠点（%2）之后</translation>
    </message>
    <message>
        <source>%1 is past the lesson&apos;s %2 planned steps</source>
        <translation>%1 超出了课程计划的 %2 步</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a built-in task</source>
        <translation>“%1”不是内置任务</translation>
    </message>
    <message>
        <source>a lesson trains one of the built-in tasks (%1); this session is not one of them</source>
        <translation>课程只能训练内置任务（%1）之一；当前会话不是</translation>
    </message>
</context>
<context>
    <name>as::LessonActions</name>
    <message>
        <source>Open lesson…</source>
        <translation>打开课程…</translation>
    </message>
    <message>
        <source>A lesson file: settings, notes and the views to look at on the way</source>
        <translation>课程文件：设置、讲义，以及途中要看的视图</translation>
    </message>
    <message>
        <source>Save as lesson…</source>
        <translation>另存为课程…</translation>
    </message>
    <message>
        <source>The current settings, probe and view as a lesson file to hand out</source>
        <translation>把当前的设置、探针句子和视图保存为可以分发的课程文件</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>%1 was not opened: %2</source>
        <translation>未打开 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a lesson this version can run: %2</source>
        <translation>%1 不是这个版本能运行的课程：%2</translation>
    </message>
    <message>
        <source>The lesson cannot run: %1</source>
        <translation>课程无法运行：%1</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lessons (*.json);;All files (*)</source>
        <translation>课程 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save as lesson</source>
        <translation>另存为课程</translation>
    </message>
    <message>
        <source>What to look at, in Markdown</source>
        <translation>要看什么（Markdown 格式）</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>讲义</translation>
    </message>
    <message>
        <source>Lessons (*.json)</source>
        <translation>课程 (*.json)</translation>
    </message>
    <message>
        <source>The lesson was not saved: %1</source>
        <translation>课程未保存：%1</translation>
    </message>
    <message>
        <source>Lesso&amp;ns</source>
        <translation>课程(&amp;N)</translation>
    </message>
</context>
<context>
    <name>as::LmTasks</name>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 holds %2 MB: a text to train on is read whole, up to %3 MB</source>
        <translation>%1 有 %2 MB：用于训练的文本会被整体读入，最多 %3 MB</translation>
    </message>
    <message>
        <source>%1 holds no line of text</source>
        <translation>%1 中没有任何一行文本</translation>
    </message>
</context>
<context>
    <name>as::MainWindow</name>
    <message>
        <source>untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Attention Studio</source>
        <translation>Attention Studio</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Training paused</source>
        <translation>训练已暂停</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Play / pause training (Space)</source>
        <translation>播放 / 暂停训练（空格）</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Train one batch, then pause (→)</source>
        <translation>训练一个批次，然后暂停（→）</translation>
    </message>
    <message>
        <source>How many steps &apos;Step N&apos; takes</source>
        <translation>“N 步”一次训练多少步</translation>
    </message>
    <message>
        <source>Step N</source>
        <translation>N 步</translation>
    </message>
    <message>
        <source>Train N batches, then pause (Shift+→)</source>
        <translation>训练 N 个批次，然后暂停（Shift+→）</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Start again from step 0 with the current settings (Ctrl+R)</source>
        <translation>用当前设置从第 0 步重新开始（Ctrl+R）</translation>
    </message>
    <message>
        <source> speed </source>
        <translation> 速度 </translation>
    </message>
    <message>
        <source>Steps per second: slow it down to watch single steps</source>
        <translation>每秒步数：调慢后可以观察单步</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最快</translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation>每秒 %1 步</translation>
    </message>
    <message>
        <source>Opened %1 to look inside (step %2): type a sentence as the probe or in Translate; Apply in Settings starts a built-in task</source>
        <translation>已打开 %1 以查看其内部（第 %2 步）：可输入句子作为探针，或在“翻译”中输入；在“设置”中点击应用会开始一个内置任务</translation>
    </message>
    <message>
        <source>Opened %1 at step %2</source>
        <translation>已打开 %1（第 %2 步）</translation>
    </message>
    <message>
        <source>step %1 / %2 · epoch %3 · loss %4 · lr %5 · %6 tok/s · elapsed %7 · remaining %8</source>
        <translation>第 %1 / %2 步 · 第 %3 轮 · 损失 %4 · 学习率 %5 · %6 词元/秒 · 已用 %7 · 剩余 %8</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新会话</translation>
    </message>
    <message>
        <source>Training the tokenisers of the new session (%1)…</source>
        <translation>正在训练新会话的分词器（%1）…</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Cancelled: the session goes on as it was</source>
        <translation>已取消：当前会话照旧继续</translation>
    </message>
    <message>
        <source>Building the new session: its tokenisers train; the current session goes on meanwhile</source>
        <translation>正在构建新会话：训练其分词器；当前会话同时继续</translation>
    </message>
    <message>
        <source> · valid perplexity %1 (step %2)</source>
        <translation> · 验证困惑度 %1（第 %2 步）</translation>
    </message>
    <message>
        <source>Fine-tune…</source>
        <translation>微调…</translation>
    </message>
    <message>
        <source>Fine-tuning %1 on %2: its weights are read again and the text cut with its tokeniser, then training starts</source>
        <translation>正在用 %2 微调 %1：重新读取其权重，用它的分词器切分文本，然后开始训练</translation>
    </message>
    <message>
        <source>Opened %1 to look inside (step %2): type a text as the probe or in Generate; Space fine-tunes it</source>
        <translation>已打开 %1 以查看内部（第 %2 步）：输入一段文本作为探针或在“生成”中输入；按空格键微调它</translation>
    </message>
    <message>
        <source> · %1 s/step</source>
        <translation> · %1 秒/步</translation>
    </message>
    <message>
        <source>This model cannot be trained further here: it was opened to look inside, and only a language model read from a model file or a Hugging Face folder, or a translator from a Hugging Face folder, is fine-tuned</source>
        <translation>此模型不能在这里继续训练：它是为了查看内部而打开的，只有从模型文件或 Hugging Face 文件夹读入的语言模型，或从 Hugging Face 文件夹读入的翻译模型，才能微调</translation>
    </message>
    <message>
        <source> · bfloat16 products</source>
        <translation> · bfloat16 乘积</translation>
    </message>
</context>
<context>
    <name>as::ModelConfig</name>
    <message>
        <source>d_model and heads must be positive</source>
        <translation>d_model 和头数必须为正</translation>
    </message>
    <message>
        <source>d_model (%1) must be a multiple of heads (%2)</source>
        <translation>d_model（%1）必须是头数（%2）的倍数</translation>
    </message>
    <message>
        <source>d_model (%1) must be even for the sinusoidal positional encoding</source>
        <translation>正弦位置编码要求 d_model（%1）为偶数</translation>
    </message>
    <message>
        <source>the encoder and the decoder need at least one layer each</source>
        <translation>编码器和解码器各至少需要一层</translation>
    </message>
    <message>
        <source>dropout must be in [0, 1)</source>
        <translation>dropout 必须在 [0, 1) 之内</translation>
    </message>
    <message>
        <source>label_smoothing must be in [0, 1)</source>
        <translation>标签平滑必须在 [0, 1) 之内</translation>
    </message>
    <message>
        <source>max_len must be at least 1</source>
        <translation>max_len 至少为 1</translation>
    </message>
    <message>
        <source>each vocabulary needs the 4 special tokens and at least one more</source>
        <translation>每个词表需要 4 个特殊词元，另外至少还要一个词元</translation>
    </message>
    <message>
        <source>this model would need %1 of memory (%2 parameters: %3 of weights, as much for their gradients and twice as much for Adam&apos;s moments, before any batch); this machine has %4</source>
        <translation>这个模型需要 %1 内存（%2 个参数：权重 %3，梯度同样多，Adam 的矩估计再两倍，尚未计入任何批次）；本机只有 %4</translation>
    </message>
    <message>
        <source>tie=all shares one embedding between source and target: it needs a shared vocabulary (--shared-vocab), here %1 source and %2 target tokens</source>
        <translation>tie=all 让源端与目标端共用一个嵌入：需要共享词表（--shared-vocab），这里源端 %1 个、目标端 %2 个词元</translation>
    </message>
    <message>
        <source>tie=all shares one embedding between source and target: it needs one vocabulary for both sides (--shared-vocab)</source>
        <translation>tie=all 让源端与目标端共用一个嵌入：两端需要同一个词表（--shared-vocab）</translation>
    </message>
    <message>
        <source>config: &apos;%1&apos; must be a non-negative whole number</source>
        <translation>config：“%1”必须是非负整数</translation>
    </message>
    <message>
        <source>config: &apos;%1&apos; must be a number</source>
        <translation>config：“%1”必须是数字</translation>
    </message>
    <message>
        <source>config: &apos;norm&apos; must be &quot;pre&quot; or &quot;post&quot;</source>
        <translation>config：“norm”必须是“pre”或“post”</translation>
    </message>
    <message>
        <source>config: &apos;tie&apos; must be &quot;none&quot;, &quot;tgt&quot; or &quot;all&quot;</source>
        <translation>config：“tie”必须是“none”“tgt”或“all”</translation>
    </message>
    <message>
        <source>a decoder-only model has no encoder: encoder_layers must be 0</source>
        <translation>仅解码器模型没有编码器：encoder_layers 必须为 0</translation>
    </message>
    <message>
        <source>the decoder needs at least one layer</source>
        <translation>解码器至少需要一层</translation>
    </message>
    <message>
        <source>a decoder-only model has one embedding: tie=all has nothing more to share than tie=tgt</source>
        <translation>仅解码器模型只有一个嵌入：tie=all 没有比 tie=tgt 更多可共享的</translation>
    </message>
    <message>
        <source>a decoder-only model has one vocabulary (src_vocab = tgt_vocab)</source>
        <translation>仅解码器模型只有一个词表（src_vocab = tgt_vocab）</translation>
    </message>
    <message>
        <source>config: &apos;arch&apos; must be &quot;encoder-decoder&quot; or &quot;decoder-only&quot;</source>
        <translation>config：&apos;arch&apos; 必须是 &quot;encoder-decoder&quot; 或 &quot;decoder-only&quot;</translation>
    </message>
    <message>
        <source>d_ff must be positive, or 0 for attention-only layers</source>
        <translation>d_ff 必须为正，或为 0 表示纯注意力层</translation>
    </message>
    <message>
        <source>norm_eps must be in (0, 1)</source>
        <translation>norm_eps 必须在 (0, 1) 之间</translation>
    </message>
    <message>
        <source>label_smoothing must be 0 for a model with masked special ids (an imported model)</source>
        <translation>带有被屏蔽特殊 id 的模型（导入的模型）的 label_smoothing 必须为 0</translation>
    </message>
    <message>
        <source>masked_specials cannot hold &lt;/s&gt;: a model must be able to end its text</source>
        <translation>masked_specials 不能包含 &lt;/s&gt;：模型必须能够结束文本</translation>
    </message>
    <message>
        <source>config: &apos;activation&apos; must be &quot;relu&quot;, &quot;gelu-tanh&quot; or &quot;silu&quot;</source>
        <translation>config：“activation”必须是 &quot;relu&quot;、&quot;gelu-tanh&quot; 或 &quot;silu&quot;</translation>
    </message>
    <message>
        <source>config: &apos;generator_bias&apos; must be true or false</source>
        <translation>config：“generator_bias”必须是 true 或 false</translation>
    </message>
    <message>
        <source>config: &apos;masked_specials&apos; must be a list of &quot;&lt;pad&gt;&quot;, &quot;&lt;s&gt;&quot;, &quot;&lt;/s&gt;&quot;, &quot;&lt;unk&gt;&quot;</source>
        <translation>config：“masked_specials”必须是由 &quot;&lt;pad&gt;&quot;、&quot;&lt;s&gt;&quot;、&quot;&lt;/s&gt;&quot;、&quot;&lt;unk&gt;&quot; 组成的列表</translation>
    </message>
    <message>
        <source>config: &apos;position&apos; must be &quot;sinusoidal&quot;, &quot;learned&quot; or &quot;sinusoidal-halves&quot;</source>
        <translation>config：“position”必须是 &quot;sinusoidal&quot;、&quot;learned&quot; 或 &quot;sinusoidal-halves&quot;</translation>
    </message>
</context>
<context>
    <name>as::ModelFile</name>
    <message>
        <source> (row %1, column %2)</source>
        <translation>（第 %1 行，第 %2 列）</translation>
    </message>
    <message>
        <source>value %1%2 is %3</source>
        <translation>值 %1%2 为 %3</translation>
    </message>
    <message numerus="yes">
        <source>the source vocabulary has %n tokens but the model&apos;s src_embed.weight has %1 rows</source>
        <translation>
            <numerusform>源词表有 %n 个词元，但模型的 src_embed.weight 有 %1 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the target vocabulary has %n tokens but the model&apos;s tgt_embed.weight has %1 rows</source>
        <translation>
            <numerusform>目标词表有 %n 个词元，但模型的 tgt_embed.weight 有 %1 行</numerusform>
        </translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos;: %2; a model whose weights are not finite (training diverged?) is not saved</source>
        <translation>张量“%1”：%2；权重不是有限数的模型（训练发散了？）不会被保存</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源</translation>
    </message>
    <message>
        <source>target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>the %1 tokenizer %2 has no SentencePiece model (not trained)</source>
        <translation>%1分词器 %2 没有 SentencePiece 模型（尚未训练）</translation>
    </message>
    <message>
        <source>the %1 vocabulary is not the pieces of its tokenizer %2</source>
        <translation>%1词表不是其分词器 %2 的子词</translation>
    </message>
    <message>
        <source>__metadata__ &apos;%1&apos; is not valid JSON: %2 at character %3</source>
        <translation>__metadata__ “%1”不是有效的 JSON：第 %3 个字符处 %2</translation>
    </message>
    <message>
        <source>__metadata__ &apos;%1&apos; must be a JSON array of token strings</source>
        <translation>__metadata__ “%1”必须是由词元字符串组成的 JSON 数组</translation>
    </message>
    <message>
        <source>__metadata__ &apos;%1&apos;: entry %2 is not a string</source>
        <translation>__metadata__ “%1”：第 %2 项不是字符串</translation>
    </message>
    <message>
        <source>no __metadata__: a model file needs its format, configuration, vocabularies and tokenizers (a bare weight file from other tools cannot be loaded as a model)</source>
        <translation>没有 __metadata__：模型文件需要其格式、配置、词表和分词器（其他工具生成的纯权重文件不能作为模型加载）</translation>
    </message>
    <message>
        <source>__metadata__ has no &apos;%1&apos;: not an Attention Studio model file</source>
        <translation>__metadata__ 中没有“%1”：不是 Attention Studio 模型文件</translation>
    </message>
    <message>
        <source>format is &apos;%1&apos;; this program reads &apos;%2&apos;</source>
        <translation>格式为“%1”；本程序读取“%2”</translation>
    </message>
    <message>
        <source>__metadata__ &apos;step&apos; is &apos;%1&apos;, not a whole number ≥ 0</source>
        <translation>__metadata__ “step”为“%1”，不是 ≥ 0 的整数</translation>
    </message>
    <message>
        <source>__metadata__ &apos;config&apos; must be a JSON object</source>
        <translation>__metadata__ “config”必须是 JSON 对象</translation>
    </message>
    <message>
        <source>config says %1 is %2 but the vocabulary lists %3 tokens</source>
        <translation>config 中 %1 为 %2，但词表列出 %3 个词元</translation>
    </message>
    <message>
        <source>config asks for %1 encoder and %2 decoder layers but the file holds only %3 tensors</source>
        <translation>config 要求 %1 个编码器层和 %2 个解码器层，但文件只有 %3 个张量</translation>
    </message>
    <message>
        <source>config says tie=all (one embedding for both sides) but src_vocab and tgt_vocab differ: tie=all needs one shared vocabulary</source>
        <translation>config 中 tie=all（两端共用一个嵌入），但 src_vocab 与 tgt_vocab 不同：tie=all 需要一个共享词表</translation>
    </message>
    <message>
        <source>__metadata__ &apos;tokenizer&apos; must be a JSON object {&quot;src&quot;: …, &quot;tgt&quot;: …}</source>
        <translation>__metadata__ “tokenizer”必须是 JSON 对象 {&quot;src&quot;: …, &quot;tgt&quot;: …}</translation>
    </message>
    <message>
        <source>tokenizer: no %1 tokenizer name (&apos;%2&apos;)</source>
        <translation>tokenizer：没有%1分词器名称（“%2”）</translation>
    </message>
    <message>
        <source>tokenizer: unknown %1 tokenizer &apos;%2&apos; (known: %3, %4), nor a subword one, bpe:N or unigram:N with N from %5 to %6</source>
        <translation>tokenizer：未知的%1分词器“%2”（已知：%3、%4），也不是子词分词器 bpe:N 或 unigram:N（N 从 %5 到 %6）</translation>
    </message>
    <message>
        <source>__metadata__ has &apos;%1&apos; but the %2 tokenizer is %3</source>
        <translation>__metadata__ 中有“%1”，但%2分词器是 %3</translation>
    </message>
    <message>
        <source>__metadata__ has no &apos;%1&apos;: the %2 tokenizer %3 needs its SentencePiece model</source>
        <translation>__metadata__ 中没有“%1”：%2分词器 %3 需要其 SentencePiece 模型</translation>
    </message>
    <message>
        <source>__metadata__ &apos;%1&apos; is not base64</source>
        <translation>__metadata__ “%1”不是 base64</translation>
    </message>
    <message>
        <source>the %1 vocabulary is not the pieces of its SentencePiece model (&apos;%2&apos;)</source>
        <translation>%1词表不是其 SentencePiece 模型（“%2”）的子词</translation>
    </message>
    <message>
        <source>missing parameter &apos;%1&apos; (shape %2)</source>
        <translation>缺少参数“%1”（形状 %2）</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has shape %2 but the configuration needs %3</source>
        <translation>张量“%1”的形状为 %2，但配置需要 %3</translation>
    </message>
    <message>
        <source>: the %1 vocabulary (%2 tokens) does not fit the weights</source>
        <translation>：%1词表（%2 个词元）与权重不符</translation>
    </message>
    <message>
        <source>unexpected tensor &apos;%1&apos;: a post-norm model has no encoder.norm or decoder.norm</source>
        <translation>意外的张量“%1”：后置归一化模型没有 encoder.norm 或 decoder.norm</translation>
    </message>
    <message>
        <source>unexpected tensor &apos;%1&apos; (not a parameter of this model)</source>
        <translation>意外的张量“%1”（不是本模型的参数）</translation>
    </message>
    <message>
        <source>cannot build the model: %1</source>
        <translation>无法构建模型：%1</translation>
    </message>
    <message>
        <source>internal error: the model&apos;s parameters differ from the names of core/SPEC.md §6.1</source>
        <translation>内部错误：模型的参数与 core/SPEC.md §6.1 中的名称不一致</translation>
    </message>
    <message>
        <source>internal error: the model&apos;s parameter &apos;%1&apos; differs from core/SPEC.md §6.1</source>
        <translation>内部错误：模型的参数“%1”与 core/SPEC.md §6.1 不一致</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos;: %2 (weights must be finite)</source>
        <translation>张量“%1”：%2（权重必须是有限数）</translation>
    </message>
    <message>
        <source>the weights do not match their checksum (%1 %2, the data&apos;s is %3): the file is damaged</source>
        <translation>权重与其校验和不匹配（%1 %2，数据的校验和为 %3）：文件已损坏</translation>
    </message>
    <message>
        <source>the file carries no checksum of its weights (written by an older version or another tool): damage to them cannot be detected</source>
        <translation>文件没有其权重的校验和（由旧版本或其他工具写入）：无法检测权重是否损坏</translation>
    </message>
    <message>
        <source>format &apos;%1&apos; does not go with config&apos;s arch &apos;%2&apos;</source>
        <translation>格式 &apos;%1&apos; 与 config 的 arch &apos;%2&apos; 不符</translation>
    </message>
    <message>
        <source>a decoder-only model has one vocabulary, but src_vocab and tgt_vocab differ</source>
        <translation>仅解码器模型只有一个词表，但 src_vocab 与 tgt_vocab 不同</translation>
    </message>
    <message>
        <source>__metadata__ has no &apos;%1&apos;: a gpt2-bpe tokenizer needs its merges</source>
        <translation>__metadata__ 中没有“%1”：gpt2-bpe 分词器需要它的合并规则</translation>
    </message>
    <message>
        <source>__metadata__ &apos;%1&apos; must be {&quot;end_of_text&quot;: id, &quot;end_of_text_piece&quot;: text, &quot;merges&quot;: text} with the id inside the vocabulary</source>
        <translation>__metadata__“%1”必须是 {&quot;end_of_text&quot;: id, &quot;end_of_text_piece&quot;: 文本, &quot;merges&quot;: 文本}，且 id 在词表之内</translation>
    </message>
    <message>
        <source>the vocabulary is not the tokenizer&apos;s</source>
        <translation>词表与分词器的不一致</translation>
    </message>
</context>
<context>
    <name>as::ProbeBar</name>
    <message>
        <source>The sentence pair whose attention is shown</source>
        <translation>显示其注意力的句对</translation>
    </message>
    <message>
        <source>or type a source sentence…</source>
        <translation>或输入一个源句…</translation>
    </message>
    <message>
        <source>…and its target (optional)</source>
        <translation>…及其目标句（可选）</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>使用</translation>
    </message>
    <message>
        <source>Probe:</source>
        <translation>探针：</translation>
    </message>
    <message>
        <source>Type a source sentence for the probe first.</source>
        <translation>请先为探针输入一个源句。</translation>
    </message>
    <message>
        <source>The text whose attention is shown</source>
        <translation>显示其注意力的文本</translation>
    </message>
    <message>
        <source>or type a text…</source>
        <translation>或输入一段文本…</translation>
    </message>
    <message>
        <source>Type a text for the probe first.</source>
        <translation>请先为探针输入一段文本。</translation>
    </message>
</context>
<context>
    <name>as::RepeatTask</name>
    <message>
        <source>%1: &apos;%2&apos; is not a whole number (repeat[:V[:LMIN[:LMAX]]])</source>
        <translation>%1：“%2”不是整数（repeat[:V[:LMIN[:LMAX]]]）</translation>
    </message>
    <message>
        <source>%1: the vocabulary V must be 2 … %2</source>
        <translation>%1：词表大小 V 必须在 2 … %2 之间</translation>
    </message>
    <message>
        <source>%1: the segment lengths must satisfy 1 ≤ LMIN ≤ LMAX ≤ %2 (two copies in a row of %3 tokens)</source>
        <translation>%1：片段长度必须满足 1 ≤ LMIN ≤ LMAX ≤ %2（一行 %3 个词元中放两份副本）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a repeat task: repeat[:V[:LMIN[:LMAX]]], e.g. repeat:64:8:30</source>
        <translation>“%1”不是 repeat 任务：应为 repeat[:V[:LMIN[:LMAX]]]，例如 repeat:64:8:30</translation>
    </message>
</context>
<context>
    <name>as::Resume</name>
    <message>
        <source>it names no built-in task (task &apos;%1&apos;, %2 %3)</source>
        <translation>它没有指定内置任务（任务“%1”，%2 %3）</translation>
    </message>
    <message>
        <source>its data is not that of the built-in task &apos;%1&apos; in this version</source>
        <translation>它的数据不是本版本内置任务“%1”的数据</translation>
    </message>
    <message>
        <source>the corpus gives another vocabulary size</source>
        <translation>语料给出的词表大小不同</translation>
    </message>
    <message>
        <source>the position in the data cannot be restored: %1</source>
        <translation>数据中的位置无法恢复：%1</translation>
    </message>
    <message>
        <source>the checkpoint was written before the averaging state was recorded: the averaging starts afresh</source>
        <translation>检查点写入时尚未记录平均状态：平均将重新开始</translation>
    </message>
    <message numerus="yes">
        <source>the checkpoint&apos;s %n averaging snapshots were taken for another plan: the averaging starts afresh</source>
        <translation>
            <numerusform>检查点的 %n 次平均快照是按另一个计划取得的：平均将重新开始</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is not the text the run was trained on: it changed since</source>
        <translation>%1 不是这次运行训练时所用的文本：它之后被修改过</translation>
    </message>
    <message>
        <source>the run trained in bfloat16, which cannot run here (%1): it continues in float32</source>
        <translation>这次训练用的是 bfloat16，这里无法运行（%1）：改用 float32 继续</translation>
    </message>
</context>
<context>
    <name>as::RunComparer</name>
    <message>
        <source>%1 was not added: at most %2 runs can be compared at once. Remove one first (View &gt; Remove compared run).</source>
        <translation>未添加 %1：最多可同时对比 %2 次运行。请先移除一个（视图 &gt; 移除对比的运行）。</translation>
    </message>
    <message>
        <source>%1 is already compared.</source>
        <translation>%1 已在对比中。</translation>
    </message>
    <message>
        <source>Not compared: %1</source>
        <translation>未对比：%1</translation>
    </message>
</context>
<context>
    <name>as::RunFile</name>
    <message>
        <source>%1 is a weight file: it holds a model but not the history of its training. Compare with the run&apos;s checkpoint (.%2, File &gt; Save, or attention-studio-cli train --checkpoint).</source>
        <translation>%1 是权重文件：它包含模型，但不包含训练历史。请与该次训练的检查点比较（.%2，文件 &gt; 保存，或 attention-studio-cli train --checkpoint）。</translation>
    </message>
    <message>
        <source>%1: not an Attention Studio checkpoint (no magic number at the start)</source>
        <translation>%1：不是 Attention Studio 检查点（开头没有魔数）</translation>
    </message>
    <message>
        <source>%1 records no training steps: nothing to compare.</source>
        <translation>%1 没有记录任何训练步：无可比较。</translation>
    </message>
</context>
<context>
    <name>as::Safetensors</name>
    <message>
        <source>cannot write a tensor named %1</source>
        <translation>无法写入名为 %1 的张量</translation>
    </message>
    <message>
        <source>tensor name %1 is not valid UTF-8</source>
        <translation>张量名 %1 不是有效的 UTF-8</translation>
    </message>
    <message>
        <source>two tensors are named %1</source>
        <translation>有两个张量都名为 %1</translation>
    </message>
    <message>
        <source>tensor %1: shape %2 overflows</source>
        <translation>张量 %1：形状 %2 溢出</translation>
    </message>
    <message>
        <source>tensor %1 has no data</source>
        <translation>张量 %1 没有数据</translation>
    </message>
    <message>
        <source>the tensors are too large for one file</source>
        <translation>张量太大，无法放入一个文件</translation>
    </message>
    <message>
        <source>the header would be %1 bytes, over the %2-byte limit of the format</source>
        <translation>文件头将为 %1 字节，超过格式 %2 字节的上限</translation>
    </message>
    <message>
        <source>out of memory while serialising the tensors</source>
        <translation>序列化张量时内存不足</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>the disk may be full</source>
        <translation>磁盘可能已满</translation>
    </message>
    <message>
        <source>the header lists &apos;%1&apos; twice</source>
        <translation>文件头两次列出“%1”</translation>
    </message>
    <message>
        <source>__metadata__: key &apos;%1&apos; appears twice</source>
        <translation>__metadata__：键“%1”出现了两次</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos;: field &apos;%2&apos; appears twice</source>
        <translation>张量“%1”：字段“%2”出现了两次</translation>
    </message>
    <message>
        <source>key &apos;%1&apos; appears twice inside &apos;%2&apos;</source>
        <translation>键“%1”在“%2”中出现了两次</translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation>布尔值</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>数组</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>the file is empty (a safetensors file starts with an 8-byte header length)</source>
        <translation>文件为空（safetensors 文件以 8 字节的文件头长度开头）</translation>
    </message>
    <message>
        <source>the file is only %1 bytes long (a safetensors file starts with an 8-byte header length)</source>
        <translation>文件只有 %1 字节（safetensors 文件以 8 字节的文件头长度开头）</translation>
    </message>
    <message>
        <source>header length %1 bytes is over the format&apos;s limit of %2 (a corrupt file, or not a safetensors file)</source>
        <translation>文件头长度 %1 字节超过格式上限 %2（文件已损坏，或不是 safetensors 文件）</translation>
    </message>
    <message>
        <source>header length %1 bytes runs past the end of the file (%2 bytes follow the length field)</source>
        <translation>文件头长度 %1 字节超出了文件末尾（长度字段之后只有 %2 字节）</translation>
    </message>
    <message>
        <source>header is not valid JSON: it is empty (the length field is 0; a file of zeros, or not a safetensors file)</source>
        <translation>文件头不是有效的 JSON：它是空的（长度字段为 0；全零的文件，或不是 safetensors 文件）</translation>
    </message>
    <message>
        <source>header is not valid UTF-8 (byte %1 of the header)</source>
        <translation>文件头不是有效的 UTF-8（文件头第 %1 字节）</translation>
    </message>
    <message>
        <source>header is not valid JSON: %1 at byte %2 of the header</source>
        <translation>文件头不是有效的 JSON：文件头第 %2 字节处 %1</translation>
    </message>
    <message>
        <source>header is a JSON array, not an object</source>
        <translation>文件头是 JSON 数组，不是对象</translation>
    </message>
    <message>
        <source>header is not a JSON object</source>
        <translation>文件头不是 JSON 对象</translation>
    </message>
    <message>
        <source>__metadata__ is %1, not an object of strings</source>
        <translation>__metadata__ 是%1，不是由字符串组成的对象</translation>
    </message>
    <message>
        <source>__metadata__: the value of &apos;%1&apos; is %2, not a string</source>
        <translation>__metadata__：“%1”的值是%2，不是字符串</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos;</source>
        <translation>张量“%1”</translation>
    </message>
    <message>
        <source>: the name is not valid Unicode (an unpaired surrogate)</source>
        <translation>：名称不是有效的 Unicode（有未配对的代理项）</translation>
    </message>
    <message>
        <source>%1: the entry is %2, not an object</source>
        <translation>%1：条目是%2，不是对象</translation>
    </message>
    <message>
        <source>: no dtype</source>
        <translation>：没有 dtype</translation>
    </message>
    <message>
        <source>%1: dtype is %2, not a string</source>
        <translation>%1：dtype 是%2，不是字符串</translation>
    </message>
    <message>
        <source>%1: dtype &apos;%2&apos; is not supported (only F32 is)</source>
        <translation>%1：不支持 dtype“%2”（只支持 F32）</translation>
    </message>
    <message>
        <source>: no shape</source>
        <translation>：没有形状</translation>
    </message>
    <message>
        <source>%1: shape is %2, not an array</source>
        <translation>%1：形状是%2，不是数组</translation>
    </message>
    <message>
        <source>%1: shape[%2] is %3, not a non-negative integer</source>
        <translation>%1：shape[%2] 为 %3，不是非负整数</translation>
    </message>
    <message>
        <source>%1: shape %2 has more elements than 64 bits can count</source>
        <translation>%1：形状 %2 的元素数超出了 64 位能表示的范围</translation>
    </message>
    <message>
        <source>%1: shape %2 needs more bytes than 64 bits can count</source>
        <translation>%1：形状 %2 所需的字节数超出了 64 位能表示的范围</translation>
    </message>
    <message>
        <source>: no data_offsets</source>
        <translation>：没有 data_offsets</translation>
    </message>
    <message>
        <source>%1: data_offsets must be an array [begin, end]</source>
        <translation>%1：data_offsets 必须是数组 [begin, end]</translation>
    </message>
    <message>
        <source>%1: data_offsets %2 is %3, not a non-negative integer</source>
        <translation>%1：data_offsets 的 %2 为 %3，不是非负整数</translation>
    </message>
    <message>
        <source>%1: data_offsets [%2, %3] are reversed (begin after end)</source>
        <translation>%1：data_offsets [%2, %3] 顺序颠倒（begin 在 end 之后）</translation>
    </message>
    <message>
        <source>%1: data_offsets end %2 past the end of the data (%3 bytes)</source>
        <translation>%1：data_offsets 的 end %2 超出了数据末尾（%3 字节）</translation>
    </message>
    <message>
        <source>%1: data_offsets [%2, %3] hold %4 bytes but shape %5 of F32 needs %6</source>
        <translation>%1：data_offsets [%2, %3] 占 %4 字节，但 F32 的形状 %5 需要 %6</translation>
    </message>
    <message>
        <source>tensor %1 (bytes %2-%3) overlaps tensor %4 (bytes %5-%6)</source>
        <translation>张量 %1（字节 %2-%3）与张量 %4（字节 %5-%6）重叠</translation>
    </message>
    <message>
        <source>gap in the data: bytes %1-%2 before tensor %3 belong to no tensor</source>
        <translation>数据中有空隙：张量 %3 之前的字节 %1-%2 不属于任何张量</translation>
    </message>
    <message>
        <source>gap in the data: its last %1 bytes (%2-%3) belong to no tensor</source>
        <translation>数据中有空隙：最后 %1 字节（%2-%3）不属于任何张量</translation>
    </message>
    <message>
        <source>cannot open &apos;%1&apos;: %2</source>
        <translation>无法打开“%1”：%2</translation>
    </message>
    <message>
        <source>cannot read &apos;%1&apos;: %2</source>
        <translation>无法读取“%1”：%2</translation>
    </message>
    <message>
        <source>%1: its %2 of weights cannot be held in this machine&apos;s %3 of memory</source>
        <translation>%1：其 %2 的权重超出了本机 %3 的内存</translation>
    </message>
    <message>
        <source>%1: out of memory reading its %2 of weights</source>
        <translation>%1：读取其 %2 的权重时内存不足</translation>
    </message>
    <message>
        <source>%1: the file changed size while it was read</source>
        <translation>%1：读取时文件大小发生了变化</translation>
    </message>
</context>
<context>
    <name>as::Sampling</name>
    <message>
        <source>the temperature must be 0 (greedy) or more</source>
        <translation>温度必须为 0（贪心）或更大</translation>
    </message>
    <message>
        <source>top-k must be 0 (all tokens) or more</source>
        <translation>top-k 必须为 0（全部词元）或更大</translation>
    </message>
    <message>
        <source>top-p must be in (0, 1]</source>
        <translation>top-p 必须在 (0, 1] 之内</translation>
    </message>
</context>
<context>
    <name>as::Session</name>
    <message>
        <source>the text&apos;s vocabulary (%1 tokens) is not the model&apos;s (%2)</source>
        <translation>文本的词表（%1 个词元）不是模型的词表（%2）</translation>
    </message>
    <message>
        <source>learned positions need max_len of at least %1, the longest sequence %2 feeds the model (max_len is %3)</source>
        <translation>可学习的位置嵌入要求 max_len 至少为 %1，即 %2 送入模型的最长序列（当前 max_len 为 %3）</translation>
    </message>
</context>
<context>
    <name>as::SessionData</name>
    <message>
        <source>a shared vocabulary is built from a corpus (zh-en, --data); the generated task &apos;%1&apos; has fixed vocabularies (copy, reverse and sort share one already)</source>
        <translation>共享词表由语料构建（zh-en、--data）；生成的任务“%1”的词表是固定的（copy、reverse 和 sort 本来就共用一个）</translation>
    </message>
    <message>
        <source>unknown task &apos;%1&apos; (built-in: %2)</source>
        <translation>未知任务“%1”（内置任务：%2）</translation>
    </message>
    <message>
        <source>a language model has one vocabulary already</source>
        <translation>语言模型本来就只有一个词表</translation>
    </message>
    <message>
        <source>a translator is fine-tuned on sentence pairs (%1), not on a language model&apos;s text &apos;%2&apos;</source>
        <translation>翻译模型在句对（%1）上微调，而不是在语言模型的文本“%2”上</translation>
    </message>
    <message>
        <source>a model is fine-tuned on text it reads with its own vocabulary (%1), not on the generated task &apos;%2&apos;</source>
        <translation>模型在它用自己词表读取的文本（%1）上微调，而不是在生成的任务“%2”上</translation>
    </message>
    <message>
        <source>a language model is fine-tuned on lm-en, lm-zh or text:FILE, not on the sentence pairs of &apos;%1&apos;</source>
        <translation>语言模型在 lm-en、lm-zh 或 text:FILE 上微调，而不是在“%1”的句对上</translation>
    </message>
</context>
<context>
    <name>as::Settings</name>
    <message>
        <source>&apos;%1&apos; is not a valid %2</source>
        <translation>“%1”不是有效的 %2</translation>
    </message>
    <message>
        <source>pre-norm</source>
        <translation>前置归一化</translation>
    </message>
    <message>
        <source>post-norm</source>
        <translation>后置归一化</translation>
    </message>
    <message>
        <source>warm-up %1</source>
        <translation>预热 %1</translation>
    </message>
    <message>
        <source>factor %1</source>
        <translation>系数 %1</translation>
    </message>
    <message>
        <source>smoothing %1</source>
        <translation>标签平滑 %1</translation>
    </message>
    <message>
        <source>dropout %1</source>
        <translation>dropout %1</translation>
    </message>
    <message>
        <source>clip %1</source>
        <translation>梯度裁剪 %1</translation>
    </message>
    <message>
        <source>d_model %1, %2 heads, d_ff %3, %4+%5 layers</source>
        <translation>d_model %1，%2 个头，d_ff %3，%4+%5 层</translation>
    </message>
    <message>
        <source>max_len %1</source>
        <translation>max_len %1</translation>
    </message>
    <message>
        <source>the same settings</source>
        <translation>设置相同</translation>
    </message>
    <message>
        <source>tie %1</source>
        <translation>权重共享 %1</translation>
    </message>
    <message>
        <source>guessed</source>
        <translation>自动判断</translation>
    </message>
    <message>
        <source>source %1</source>
        <translation>源端 %1</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>目标端 %1</translation>
    </message>
    <message>
        <source>decoder-only</source>
        <translation>仅解码器</translation>
    </message>
    <message>
        <source>encoder-decoder</source>
        <translation>编码器-解码器</translation>
    </message>
    <message>
        <source>d_model %1, %2 heads, d_ff %3, %4 layers</source>
        <translation>d_model %1，%2 个头，d_ff %3，%4 层</translation>
    </message>
    <message>
        <source>%1 positions</source>
        <translation>%1 位置编码</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a precision (float32 or bf16)</source>
        <translation>&apos;%1&apos; 不是一种精度（float32 或 bf16）</translation>
    </message>
</context>
<context>
    <name>as::SettingsPanel</name>
    <message>
        <source>Width of every token&apos;s vector (d_model)</source>
        <translation>每个词元向量的宽度（嵌入维度 d_model）</translation>
    </message>
    <message>
        <source>Attention heads; d_model must be a multiple of it</source>
        <translation>注意力头数；d_model 必须是它的倍数</translation>
    </message>
    <message>
        <source>Encoder layers</source>
        <translation>编码器层数</translation>
    </message>
    <message>
        <source>Decoder layers</source>
        <translation>解码器层数</translation>
    </message>
    <message>
        <source>Dropout probability (training only)</source>
        <translation>dropout（随机失活）概率（仅训练时）</translation>
    </message>
    <message>
        <source>Label smoothing ε</source>
        <translation>标签平滑 ε</translation>
    </message>
    <message>
        <source>pre-norm (Annotated Transformer)</source>
        <translation>前置归一化（Pre-Norm，Annotated Transformer）</translation>
    </message>
    <message>
        <source>post-norm (2017 paper)</source>
        <translation>后置归一化（Post-Norm，2017 年论文）</translation>
    </message>
    <message>
        <source>Noam factor: scales the whole schedule</source>
        <translation>Noam 系数：缩放整个学习率调度</translation>
    </message>
    <message>
        <source>Noam warmup steps: the rate rises until here (none: the rate starts at its peak and only decays — warm-up 1 and 0 give the same rates)</source>
        <translation>Noam 预热（warm-up）步数：学习率一直上升到这里（无：学习率从峰值开始，只下降——预热 1 和 0 给出相同的学习率）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Gradient clipping: gradients are scaled down to this global L2 norm when above it</source>
        <translation>梯度裁剪：当全局 L2 范数超过此值时，把梯度缩小到此范数</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>Sentences per batch (the toy task always uses its 3)</source>
        <translation>每批次的句子数（toy 任务总是用它的 3 句）</translation>
    </message>
    <message>
        <source>Token budget of a corpus batch: sentences of similar length are batched up to this many (padded) tokens</source>
        <translation>语料库批次的词元预算：长度相近的句子组成一个批次，最多这么多个（含填充的）词元</translation>
    </message>
    <message>
        <source>Checkpoint averaging: the exported model is the mean of the weights at this many points, 5 % of the planned steps apart, the last at the end (1 = off)</source>
        <translation>检查点平均：导出的模型是这么多个时间点的权重的平均，各点相隔计划步数的 5 %，最后一个在结尾（1 = 关）</translation>
    </message>
    <message>
        <source>Seed of the initial weights, dropout and data (any whole number up to 19 digits, as the command line&apos;s --seed)</source>
        <translation>初始权重、dropout 和数据的种子（不超过 19 位的任意整数，同命令行的 --seed）</translation>
    </message>
    <message>
        <source>Steps planned: the schedule plot and the time estimate use it; Play stops there</source>
        <translation>计划步数：学习率调度图和时间估计使用它；播放到此停止</translation>
    </message>
    <message>
        <source>Validation every N steps (0 = never)</source>
        <translation>每 N 步验证一次（0 = 从不）</translation>
    </message>
    <message>
        <source>Training time planned: Play also stops after this many minutes, and the status bar counts down to it (off: steps only)</source>
        <translation>计划训练时间：播放在这么多分钟后也会停止，状态栏会倒计时（关：只按步数）</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>&lt;b&gt;Model&lt;/b&gt;</source>
        <translation>&lt;b&gt;模型&lt;/b&gt;</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <source>heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>d_ff</source>
        <translation>d_ff</translation>
    </message>
    <message>
        <source>encoder layers</source>
        <translation>编码器层数</translation>
    </message>
    <message>
        <source>decoder layers</source>
        <translation>解码器层数</translation>
    </message>
    <message>
        <source>dropout</source>
        <translation>dropout</translation>
    </message>
    <message>
        <source>label smoothing</source>
        <translation>标签平滑</translation>
    </message>
    <message>
        <source>norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>&lt;b&gt;Schedule&lt;/b&gt;</source>
        <translation>&lt;b&gt;学习率调度&lt;/b&gt;</translation>
    </message>
    <message>
        <source>factor</source>
        <translation>系数</translation>
    </message>
    <message>
        <source>warmup</source>
        <translation>预热</translation>
    </message>
    <message>
        <source>&lt;b&gt;Training&lt;/b&gt;</source>
        <translation>&lt;b&gt;训练&lt;/b&gt;</translation>
    </message>
    <message>
        <source>batch size</source>
        <translation>批次大小</translation>
    </message>
    <message>
        <source>tokens per batch</source>
        <translation>每批次词元数</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>clip gradient norm</source>
        <translation>梯度范数裁剪</translation>
    </message>
    <message>
        <source>planned steps</source>
        <translation>计划步数</translation>
    </message>
    <message>
        <source>planned minutes</source>
        <translation>计划分钟数</translation>
    </message>
    <message>
        <source>validate every</source>
        <translation>验证间隔</translation>
    </message>
    <message>
        <source>average weights of</source>
        <translation>平均权重点数</translation>
    </message>
    <message>
        <source>Apply and reset</source>
        <translation>应用并重置</translation>
    </message>
    <message>
        <source>Build a fresh model with these settings (training restarts at step 0)</source>
        <translation>用这些设置构建一个新模型（训练从第 0 步重新开始）</translation>
    </message>
    <message>
        <source>Model: the opened model&apos;s own configuration. Training: the %1 recipe — the model&apos;s file says it was trained on %1; its training settings themselves are not recorded in a model file.</source>
        <translation>模型：所打开模型自身的配置。训练：%1 的默认配方——模型文件记录它是在 %1 上训练的；训练设置本身不记录在模型文件中。</translation>
    </message>
    <message>
        <source>Model: the opened model&apos;s own configuration. Training: not recorded in a model file; shown: the %1 recipe, which Apply would train.</source>
        <translation>模型：所打开模型自身的配置。训练：模型文件中没有记录；显示的是 %1 的默认配方，点击“应用并重置”将按它训练。</translation>
    </message>
    <message>
        <source>weight tying</source>
        <translation>权重共享</translation>
    </message>
    <message>
        <source>Share one matrix between the target embedding and the generator (the paper&apos;s §3.4), and with the source embedding too (needs a shared vocabulary): fewer parameters to learn from the same pairs</source>
        <translation>目标嵌入与输出层（生成器）共用一个矩阵（论文 §3.4），也可再与源嵌入共用（需要共享词表）：从同样的句对中要学的参数更少</translation>
    </message>
    <message>
        <source>target embedding = generator</source>
        <translation>目标嵌入 = 生成器</translation>
    </message>
    <message>
        <source>source, target embedding = generator</source>
        <translation>源端、目标嵌入 = 生成器</translation>
    </message>
    <message>
        <source>shared vocabulary</source>
        <translation>共享词表</translation>
    </message>
    <message>
        <source>Set: the run stops at whichever limit comes first. Not set: the task&apos;s recipe without planned minutes, no step limit with them.</source>
        <translation>设定时：先到达哪个限制就在哪里停止。未设定时：没有计划分钟数则用任务配方的步数，有计划分钟数则不限步数。</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Tying the source embedding too needs one vocabulary for both sides: tick &quot;shared vocabulary&quot; (the bundled corpus), or tie the target embedding and the generator only.</source>
        <translation>连源嵌入也共享，需要两端用同一个词表：勾选“共享词表”（自带语料），或只共享目标嵌入与生成器。</translation>
    </message>
    <message>
        <source>source tokens</source>
        <translation>源端词元</translation>
    </message>
    <message>
        <source>target tokens</source>
        <translation>目标端词元</translation>
    </message>
    <message>
        <source>How the zh-en corpus&apos;s sentences are cut: guessed (cjk-char for Chinese, word for English), or a SentencePiece model (BPE or unigram) trained on the training split when the session is made, whose pieces are the vocabulary</source>
        <translation>zh-en 语料的句子如何切分：自动判断（中文用 cjk-char，英文用 word），或在建立会话时用训练集训练一个 SentencePiece 模型（BPE 或 unigram），其子词片段即为词表</translation>
    </message>
    <message>
        <source>guessed</source>
        <translation>自动判断</translation>
    </message>
    <message>
        <source>cjk-char (one per character)</source>
        <translation>cjk-char（每个字一个）</translation>
    </message>
    <message>
        <source>word</source>
        <translation>word（按词）</translation>
    </message>
    <message>
        <source>BPE (SentencePiece)</source>
        <translation>BPE（SentencePiece）</translation>
    </message>
    <message>
        <source>unigram (SentencePiece)</source>
        <translation>unigram（SentencePiece）</translation>
    </message>
    <message>
        <source>source pieces</source>
        <translation>源端片段数</translation>
    </message>
    <message>
        <source>target pieces</source>
        <translation>目标端片段数</translation>
    </message>
    <message>
        <source>Vocabulary size of the BPE or unigram model: at most this many pieces, the four special tokens included</source>
        <translation>BPE 或 unigram 模型的词表大小：最多这么多个片段，含四个特殊词元</translation>
    </message>
    <message>
        <source>One vocabulary for both sides, built from both sides&apos; tokens (each side keeps its tokeniser), or with BPE or unigram of the same size on both sides one SentencePiece model trained on both, as the command line&apos;s --shared-vocab; the bundled corpus only (a corpus opened from a file keeps how it was read)</source>
        <translation>两端用同一个词表，由两端的词元共同构建（各端保留自己的分词器）；若两端都是同样大小的 BPE 或 unigram，则用两端的句子训练一个共同的 SentencePiece 模型。与命令行的 --shared-vocab 相同；仅用于自带语料（从文件打开的语料保持读入时的方式）</translation>
    </message>
    <message>
        <source>%1. Untick &quot;shared vocabulary&quot;, give both sides the same BPE or unigram model size, or choose cjk-char, word or guessed on both sides.</source>
        <translation>%1。请取消勾选“共享词表”，或让两端使用同一种、同样大小的 BPE 或 unigram 模型，或在两端都选择 cjk-char、word 或自动判断。</translation>
    </message>
    <message>
        <source>architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Encoder-decoder: the 2017 paper&apos;s translator. Decoder-only: GPT&apos;s shape — masked self-attention and feed-forward, no encoder and no cross-attention — a language model that continues a text (the lm- tasks)</source>
        <translation>编码器-解码器：2017 年论文的翻译模型。仅解码器（decoder-only）：GPT 的结构——带掩码的自注意力和前馈神经网络，没有编码器，也没有交叉注意力——一个续写文本的语言模型（lm- 任务）</translation>
    </message>
    <message>
        <source>encoder-decoder (translator)</source>
        <translation>编码器-解码器（翻译）</translation>
    </message>
    <message>
        <source>decoder-only (GPT)</source>
        <translation>仅解码器（GPT）</translation>
    </message>
    <message>
        <source>toy: three Chinese→English pairs · copy, reverse, sort: random sequences · zh-en: the Tatoeba Chinese→English corpus that ships with the program (29k pairs) · lm-en, lm-zh: its English or Chinese side as one text to continue · lm-brackets: balanced brackets · repeat: random tokens in which a segment recurs, where induction heads form</source>
        <translation>toy：三个中译英句对 · copy、reverse、sort：随机序列 · zh-en：随程序提供的 Tatoeba 中译英语料（2.9 万句对） · lm-en、lm-zh：其英文或中文一侧，作为要续写的一段文本 · lm-brackets：配对的括号 · repeat：其中某个片段会重复出现的随机词元，归纳头（induction head）在此形成</translation>
    </message>
    <message>
        <source>Inner width of the feed-forward sublayer; 0: none, attention-only layers (as Elhage et al.&apos;s two-layer models, where induction heads are read most clearly)</source>
        <translation>前馈神经网络子层的隐藏层维度（d_ff）；0 表示没有前馈子层，即纯注意力层（如 Elhage 等的两层模型，在其中最容易看清归纳头）</translation>
    </message>
    <message>
        <source>0 (attention-only)</source>
        <translation>0（纯注意力）</translation>
    </message>
    <message>
        <source>positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>sinusoidal (2017 paper)</source>
        <translation>正弦（2017 年论文）</translation>
    </message>
    <message>
        <source>learned (GPT-2)</source>
        <translation>可学习（GPT-2）</translation>
    </message>
    <message>
        <source>Fine-tuning %1 on %3: its own configuration, vocabulary and tokeniser (%2), from its own weights; Reset starts again from them. Apply builds a fresh model of these settings instead.</source>
        <translation>正在用 %3 微调 %1：使用它自己的配置、词表和分词器（%2），从它自己的权重出发；重置会从这些权重重新开始。应用则会改为按这些设置构建一个全新的模型。</translation>
    </message>
    <message>
        <source>Sinusoidal: the paper&apos;s fixed encodings added to embeddings scaled by √d_model. Learned: GPT-2&apos;s table of max_len positions, trained like any weight, added to unscaled embeddings. Sinusoidal in halves: the paper&apos;s numbers with the sines first and the cosines after them, as Marian&apos;s translators (OPUS-MT) lay them out</source>
        <translation>正弦：论文中固定的位置编码，加到乘以 √d_model 的嵌入上。可学习：GPT-2 那样的 max_len 个位置的表，像其他权重一样训练，加到未缩放的嵌入上。分半正弦：与论文相同的数值，先排正弦、后排余弦，即 Marian 翻译模型（OPUS-MT）的排法</translation>
    </message>
    <message>
        <source>sinusoidal in halves (Marian)</source>
        <translation>分半正弦（Marian）</translation>
    </message>
    <message>
        <source>the model&apos;s own: %1</source>
        <translation>模型自带：%1</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>The precision of the layers&apos; matrix products in training. bfloat16 mixed precision rounds their inputs to bfloat16 (float32&apos;s exponent, 8 significant bits) and sums in float32; the weights, Adam, softmax, LayerNorm and the loss stay float32. Faster on CPUs with bfloat16 units; validation and translation stay float32</source>
        <translation>训练中各层矩阵乘法的精度。bfloat16 混合精度把乘法的输入舍入为 bfloat16（float32 的指数，8 位有效数字），用 float32 求和；权重、Adam、softmax、层归一化和损失保持 float32。在有 bfloat16 单元的 CPU 上更快；验证和翻译保持 float32</translation>
    </message>
    <message>
        <source>float32</source>
        <translation>float32</translation>
    </message>
    <message>
        <source>bfloat16 mixed precision</source>
        <translation>bfloat16 混合精度</translation>
    </message>
    <message>
        <source>This CPU&apos;s bfloat16 units: %1</source>
        <translation>这颗 CPU 的 bfloat16 运算单元：%1</translation>
    </message>
    <message>
        <source>Not available here: %1</source>
        <translation>这里不可用：%1</translation>
    </message>
</context>
<context>
    <name>as::Subword</name>
    <message>
        <source>SentencePiece could not train a %1 model of %2 pieces: %3</source>
        <translation>SentencePiece 无法训练有 %2 个子词的 %1 模型：%3</translation>
    </message>
    <message>
        <source>not a SentencePiece model: %1</source>
        <translation>不是 SentencePiece 模型：%1</translation>
    </message>
    <message>
        <source>the SentencePiece model&apos;s special ids are pad %1, bos %2, eos %3, unk %4 with %5 pieces; this program needs 0, 1, 2, 3 and at least 5 pieces</source>
        <translation>SentencePiece 模型的特殊 id 为 pad %1、bos %2、eos %3、unk %4，共 %5 个子词；本程序需要 0、1、2、3，且至少 5 个子词</translation>
    </message>
    <message>
        <source>the SentencePiece model is neither BPE nor unigram (model_type %1)</source>
        <translation>SentencePiece 模型既不是 BPE 也不是 unigram（model_type %1）</translation>
    </message>
    <message>
        <source>%1:%2 is too small for this text: its pieces must hold each character that makes up 99.95 % of it (%3 characters) and 4 special pieces, %4 pieces at least; choose %1:%4 or more, or cjk-char</source>
        <translation>%1:%2 对这段文本太小了：片段必须容纳构成其 99.95 % 的每个字符（%3 个字符）以及 4 个特殊片段，至少需要 %4 个片段；请选择 %1:%4 或更大，或者选择 cjk-char</translation>
    </message>
</context>
<context>
    <name>as::Theme</name>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
</context>
<context>
    <name>as::Tokenizer</name>
    <message>
        <source>named %1 but it is a %2 model</source>
        <translation>名为 %1，但它是 %2 模型</translation>
    </message>
    <message>
        <source>the SentencePiece model of %1 has %2 pieces, over %3</source>
        <translation>%1 的 SentencePiece 模型有 %2 个子词，超过 %3</translation>
    </message>
    <message>
        <source>guessed</source>
        <translation>自动判断</translation>
    </message>
    <message>
        <source>a shared vocabulary with a BPE or unigram side is one SentencePiece model trained on both sides: both need the same kind and size (e.g. bpe:8000 and bpe:8000), here source %1 and target %2</source>
        <translation>有 BPE 或 unigram 一端的共享词表是用两端句子训练的同一个 SentencePiece 模型：两端需要同一种类、同样大小（例如 bpe:8000 与 bpe:8000），此处源端为 %1，目标端为 %2</translation>
    </message>
</context>
<context>
    <name>as::TokensController</name>
    <message>
        <source>Cancelled: press Compute to cut the corpus again.</source>
        <translation>已取消：按“计算”重新切分语料。</translation>
    </message>
    <message>
        <source>A/B: B is this session with bpe:%1 on the %2 side; the Loss view shows both</source>
        <translation>A/B：B 即本会话在%2改用 bpe:%1；损失视图同时显示两者</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源端</translation>
    </message>
    <message>
        <source>target</source>
        <translation>目标端</translation>
    </message>
    <message>
        <source>The A/B against BPE cuts a corpus&apos;s pairs another way: apply zh-en or open a corpus (File &gt; Open corpus…) first.</source>
        <translation>与 BPE 的 A/B 对比是用另一种方式切分语料库的句对：请先应用 zh-en，或打开一个语料库（文件 &gt; 打开语料库…）。</translation>
    </message>
    <message>
        <source>The corpus was read with one vocabulary for both sides (--shared-vocab), which a BPE side cannot share: open it again without it.</source>
        <translation>该语料库读取时两端共用一个词表（--shared-vocab），BPE 端不能共享：请不带该选项重新打开它。</translation>
    </message>
    <message>
        <source>The session shares one vocabulary between its sides, which a BPE side cannot: untick &quot;shared vocabulary&quot; first.</source>
        <translation>本会话两端共享一个词表，BPE 端不能共享：请先取消勾选“共享词表”。</translation>
    </message>
    <message>
        <source>This side is cut by bpe:%1 already.</source>
        <translation>这一端已经用 bpe:%1 切分。</translation>
    </message>
    <message>
        <source>The corpus %1 kept no training text to cut.</source>
        <translation>语料库 %1 没有保留可切分的训练文本。</translation>
    </message>
    <message>
        <source>The Tokens view trains and compares tokenisers on a corpus&apos;s training split; %1 is a generated task, whose pairs are made from a fixed vocabulary, not read from a corpus: apply zh-en in Settings or open a corpus (File &gt; Open corpus…).</source>
        <translation>词元视图在语料库的训练集上训练并比较分词器；%1 是生成的任务，其句对由固定词表构造，而不是从语料库读取：请在设置中应用 zh-en，或打开一个语料库（文件 &gt; 打开语料库…）。</translation>
    </message>
    <message>
        <source>A model opened from a file (%1) comes without the corpus it was trained on: the Tokens view needs a corpus&apos;s training split to cut. Apply zh-en in Settings or open a corpus (File &gt; Open corpus…).</source>
        <translation>从文件打开的模型（%1）不带其训练所用的语料库：词元视图需要语料库的训练集来切分。请在设置中应用 zh-en，或打开一个语料库（文件 &gt; 打开语料库…）。</translation>
    </message>
    <message>
        <source>No corpus to cut.</source>
        <translation>没有可切分的语料库。</translation>
    </message>
    <message>
        <source>A/B: building B, this session with bpe:%1 on the %2 side; A trains meanwhile</source>
        <translation>A/B：正在构建 B（本会话在%2改用 bpe:%1）；A 同时继续训练</translation>
    </message>
</context>
<context>
    <name>as::TorchFile</name>
    <message>
        <source>zip archive: %1</source>
        <translation>zip 归档：%1</translation>
    </message>
    <message>
        <source>no end of central directory</source>
        <translation>没有中央目录结束记录</translation>
    </message>
    <message>
        <source>a zip64 archive without its locator</source>
        <translation>zip64 归档缺少定位记录</translation>
    </message>
    <message>
        <source>the zip64 end record is not where its locator says</source>
        <translation>zip64 结束记录不在定位记录所指的位置</translation>
    </message>
    <message>
        <source>the central directory runs past the end of the file</source>
        <translation>中央目录超出了文件末尾</translation>
    </message>
    <message>
        <source>central directory entry %1 is damaged</source>
        <translation>中央目录第 %1 项已损坏</translation>
    </message>
    <message>
        <source>central directory entry %1 runs past the directory</source>
        <translation>中央目录第 %1 项超出了目录范围</translation>
    </message>
    <message>
        <source>%1 is compressed (method %2): PyTorch stores its entries uncompressed</source>
        <translation>%1 是压缩的（方法 %2）：PyTorch 存储的条目不压缩</translation>
    </message>
    <message>
        <source>the local header of %1 is not where the directory says</source>
        <translation>%1 的本地文件头不在目录所指的位置</translation>
    </message>
    <message>
        <source>%1 runs past the end of the file</source>
        <translation>%1 超出了文件末尾</translation>
    </message>
    <message>
        <source>pickle at byte %1: %2</source>
        <translation>pickle 第 %1 字节处：%2</translation>
    </message>
    <message>
        <source>truncated</source>
        <translation>文件被截断</translation>
    </message>
    <message>
        <source>the stack is empty</source>
        <translation>栈为空</translation>
    </message>
    <message>
        <source>no MARK to pop to</source>
        <translation>没有可弹出到的 MARK</translation>
    </message>
    <message>
        <source>global %1 is not allowed: a weights file holds tensors, and nothing in it is run</source>
        <translation>不允许全局对象 %1：权重文件只存放张量，其中任何内容都不会被执行</translation>
    </message>
    <message>
        <source>a persistent id that is not (&apos;storage&apos;, type, key, location, size)</source>
        <translation>持久 id 不是 (&apos;storage&apos;, 类型, 键, 位置, 大小) 的形式</translation>
    </message>
    <message>
        <source>a storage of a type not read here (float32, float16, bfloat16 and float64 are)</source>
        <translation>存储的类型不受支持（支持 float32、float16、bfloat16 和 float64）</translation>
    </message>
    <message>
        <source>a storage&apos;s key or size is malformed</source>
        <translation>存储的键或大小格式错误</translation>
    </message>
    <message>
        <source>a storage view (legacy files of PyTorch before 0.4) is not read here</source>
        <translation>不读取存储视图（PyTorch 0.4 之前的旧格式文件）</translation>
    </message>
    <message>
        <source>storage %1 is named twice with different types or sizes</source>
        <translation>存储 %1 被以不同的类型或大小命名了两次</translation>
    </message>
    <message>
        <source>REDUCE of something that is not an allowed function</source>
        <translation>对非允许函数的 REDUCE</translation>
    </message>
    <message>
        <source>OrderedDict with arguments</source>
        <translation>带参数的 OrderedDict</translation>
    </message>
    <message>
        <source>_rebuild_parameter without a tensor</source>
        <translation>_rebuild_parameter 没有张量</translation>
    </message>
    <message>
        <source>_rebuild_tensor_v2 with arguments other than (storage, offset, size, stride, …)</source>
        <translation>_rebuild_tensor_v2 的参数不是 (storage, offset, size, stride, …)</translation>
    </message>
    <message>
        <source>a tensor with a negative storage offset</source>
        <translation>张量的存储偏移为负</translation>
    </message>
    <message>
        <source>a tensor&apos;s size or stride is not a whole number ≥ 0</source>
        <translation>张量的大小或步长不是 ≥ 0 的整数</translation>
    </message>
    <message>
        <source>calling %1 is not allowed</source>
        <translation>不允许调用 %1</translation>
    </message>
    <message>
        <source>pickle protocol %1</source>
        <translation>pickle 协议 %1</translation>
    </message>
    <message>
        <source>an integer of %1 bytes</source>
        <translation>%1 字节的整数</translation>
    </message>
    <message>
        <source>STACK_GLOBAL of values that are not strings</source>
        <translation>STACK_GLOBAL 的值不是字符串</translation>
    </message>
    <message>
        <source>memo %1 was never stored</source>
        <translation>memo %1 从未被存储</translation>
    </message>
    <message>
        <source>APPEND to something that is not a list</source>
        <translation>对非列表执行 APPEND</translation>
    </message>
    <message>
        <source>SETITEMS to something that is not a dict</source>
        <translation>对非字典执行 SETITEMS</translation>
    </message>
    <message>
        <source>BUILD of something that is not an OrderedDict</source>
        <translation>对非 OrderedDict 执行 BUILD</translation>
    </message>
    <message>
        <source>opcode %1 is not allowed</source>
        <translation>不允许操作码 %1</translation>
    </message>
    <message>
        <source>more than 10 million values on the stack</source>
        <translation>栈上的值超过一千万个</translation>
    </message>
    <message>
        <source>the pickle is not a state dict (a dict of tensors)</source>
        <translation>该 pickle 不是状态字典（张量的字典）</translation>
    </message>
    <message>
        <source>a state dict key that is not a string</source>
        <translation>状态字典的键不是字符串</translation>
    </message>
    <message>
        <source>%1 is in the state dict twice</source>
        <translation>%1 在状态字典中出现两次</translation>
    </message>
    <message>
        <source>%1 is not a tensor</source>
        <translation>%1 不是张量</translation>
    </message>
    <message>
        <source>%1: storage %2 is not in the file</source>
        <translation>%1：文件中没有存储 %2</translation>
    </message>
    <message>
        <source>%1 has %2 elements, more than its storage %3 holds (%4)</source>
        <translation>%1 有 %2 个元素，多于其存储 %3 所含的（%4）</translation>
    </message>
    <message>
        <source>%1 reads past the end of its storage %2 (%3 elements)</source>
        <translation>%1 的读取超出了其存储 %2 的末尾（%3 个元素）</translation>
    </message>
    <message>
        <source>the archive has two data.pkl</source>
        <translation>归档中有两个 data.pkl</translation>
    </message>
    <message>
        <source>the archive has no data.pkl: not a PyTorch file</source>
        <translation>归档中没有 data.pkl：不是 PyTorch 文件</translation>
    </message>
    <message>
        <source>storage %1 is not in the archive</source>
        <translation>归档中没有存储 %1</translation>
    </message>
    <message>
        <source>storage %1 holds %2 bytes, not the %3 elements the pickle says</source>
        <translation>存储 %1 有 %2 字节，而不是 pickle 所说的 %3 个元素</translation>
    </message>
    <message>
        <source>not a PyTorch file: no magic number</source>
        <translation>不是 PyTorch 文件：没有魔数</translation>
    </message>
    <message>
        <source>legacy protocol version %1, not 1001</source>
        <translation>旧格式协议版本为 %1，而不是 1001</translation>
    </message>
    <message>
        <source>the storage keys are not a list</source>
        <translation>存储键不是列表</translation>
    </message>
    <message>
        <source>a storage key that is not a string</source>
        <translation>存储键不是字符串</translation>
    </message>
    <message>
        <source>storage %1 is in the file but no tensor names it</source>
        <translation>存储 %1 在文件中，但没有张量引用它</translation>
    </message>
    <message>
        <source>storage %1: truncated</source>
        <translation>存储 %1：被截断</translation>
    </message>
    <message>
        <source>storage %1: %2 elements where the pickle says %3, in %4 bytes left</source>
        <translation>存储 %1：有 %2 个元素，而 pickle 说是 %3，剩余 %4 字节</translation>
    </message>
    <message>
        <source>neither a zip archive nor a pickle: not a PyTorch file</source>
        <translation>既不是 zip 归档也不是 pickle：不是 PyTorch 文件</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>as::Trainer</name>
    <message>
        <source>the gradient of %1 is %2 at value %3 (the first layer, in forward order, whose gradient is not finite; %4 of %5 tensors are affected)</source>
        <translation>%1 的梯度在第 %3 个值处为 %2（按前向顺序第一个梯度不是有限数的层；%5 个张量中有 %4 个受影响）</translation>
    </message>
    <message>
        <source>step %1: the loss is %2</source>
        <translation>第 %1 步：损失为 %2</translation>
    </message>
    <message>
        <source>step %1: the loss is finite (%2) but</source>
        <translation>第 %1 步：损失是有限数（%2），但</translation>
    </message>
    <message>
        <source>; the update was skipped</source>
        <translation>；本次更新已跳过</translation>
    </message>
</context>
<context>
    <name>as::TrainingWorker</name>
    <message>
        <source>The task cannot be built: %1.</source>
        <translation>无法构建任务：%1。</translation>
    </message>
    <message>
        <source>The model cannot be built: %1.</source>
        <translation>无法构建模型：%1。</translation>
    </message>
    <message>
        <source>Training is paused: %1. Try a smaller learning-rate factor, a longer warmup or gradient clipping, then Reset.</source>
        <translation>训练已暂停：%1。请尝试更小的学习率系数、更长的预热或梯度裁剪，然后重置。</translation>
    </message>
    <message>
        <source>A/B needs a session that trains (a task or a corpus).</source>
        <translation>A/B 需要一个可训练的会话（任务或语料库）。</translation>
    </message>
    <message>
        <source>%1 was not opened: %2</source>
        <translation>未打开 %1：%2</translation>
    </message>
    <message>
        <source>There is no model to save.</source>
        <translation>没有可保存的模型。</translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation>未导入 %1：%2</translation>
    </message>
    <message>
        <source>there is no model</source>
        <translation>没有模型</translation>
    </message>
    <message>
        <source>The weights were not exported: %1</source>
        <translation>权重未导出：%1</translation>
    </message>
</context>
<context>
    <name>as::TranslationService</name>
    <message>
        <source>Copying the current weights…</source>
        <translation>正在复制当前权重…</translation>
    </message>
    <message>
        <source>No model yet: start training or open a model, then translate.</source>
        <translation>还没有模型：请开始训练或打开一个模型，然后再翻译。</translation>
    </message>
    <message>
        <source>Waiting for the previous translation to finish…</source>
        <translation>正在等待上一次翻译完成…</translation>
    </message>
    <message>
        <source>Translating with the weights of step %1…</source>
        <translation>正在用第 %1 步的权重翻译…</translation>
    </message>
</context>
<context>
    <name>as::Translator</name>
    <message>
        <source>Nothing to translate: the input has no tokens.</source>
        <translation>没有可翻译的内容：输入中没有词元。</translation>
    </message>
    <message>
        <source>position %1 is past the translation&apos;s %2 tokens</source>
        <translation>位置 %1 超出了译文的 %2 个词元</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a token of the target vocabulary</source>
        <translation>“%1”不是目标词表中的词元</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is the token chosen there</source>
        <translation>“%1”就是该位置选中的词元</translation>
    </message>
    <message>
        <source>Translation failed: %1</source>
        <translation>翻译失败：%1</translation>
    </message>
    <message>
        <source>the prompt is empty: there is nothing to attribute the continuation to</source>
        <translation>提示为空：续写没有可以归因的词元</translation>
    </message>
    <message>
        <source>position %1 is past the continuation&apos;s %2 tokens</source>
        <translation>位置 %1 超出了续写的 %2 个词元</translation>
    </message>
</context>
<context>
    <name>as::ViewSet</name>
    <message>
        <source>&amp;Loss</source>
        <translation>损失(&amp;L)</translation>
    </message>
    <message>
        <source>Learning &amp;rate</source>
        <translation>学习率(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Positional encoding</source>
        <translation>位置编码(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Attention</source>
        <translation>注意力(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Translate</source>
        <translation>翻译(&amp;T)</translation>
    </message>
    <message>
        <source>Sa&amp;mples</source>
        <translation>样例(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Masks and smoothing</source>
        <translation>掩码与平滑(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Heads</source>
        <translation>头(&amp;H)</translation>
    </message>
    <message>
        <source>Head d&amp;ynamics</source>
        <translation>头的演变(&amp;Y)</translation>
    </message>
    <message>
        <source>H&amp;ealth</source>
        <translation>健康(&amp;E)</translation>
    </message>
    <message>
        <source>Em&amp;beddings</source>
        <translation>嵌入(&amp;B)</translation>
    </message>
    <message>
        <source>M&amp;odel</source>
        <translation>模型(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Decoding</source>
        <translation>解码(&amp;D)</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练过程</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型内部</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力分析</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>翻译与解码</translation>
    </message>
    <message>
        <source>To&amp;kens</source>
        <translation>词元(&amp;K)</translation>
    </message>
    <message>
        <source>Show %1</source>
        <translation>显示 %1</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>&amp;Generate</source>
        <translation>生成(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Induction heads</source>
        <translation>归纳头(&amp;I)</translation>
    </message>
</context>
<context>
    <name>as::Vocab</name>
    <message>
        <source>a vocabulary must start with &lt;pad&gt;, &lt;s&gt;, &lt;/s&gt;, &lt;unk&gt;</source>
        <translation>词表必须以 &lt;pad&gt;、&lt;s&gt;、&lt;/s&gt;、&lt;unk&gt; 开头</translation>
    </message>
    <message>
        <source>the vocabulary lists &apos;%1&apos; twice</source>
        <translation>词表两次列出“%1”</translation>
    </message>
</context>
<context>
    <name>as::ui::ArchitectureDiagram</name>
    <message>
        <source>Click a block (or use the arrow keys) to see its numbers for the probe sentence</source>
        <translation>点击一个模块（或用方向键）查看探针句子在其中的数值</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>相加</translation>
    </message>
    <message>
        <source>Add &amp; Norm</source>
        <translation>相加与层归一化</translation>
    </message>
    <message>
        <source>Layer norm</source>
        <translation>层归一化</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Input embedding</source>
        <translation>输入嵌入</translation>
    </message>
    <message>
        <source>+ Positional encoding</source>
        <translation>+ 位置编码</translation>
    </message>
    <message>
        <source>Multi-head attention</source>
        <translation>多头注意力</translation>
    </message>
    <message>
        <source>Feed forward</source>
        <translation>前馈神经网络</translation>
    </message>
    <message>
        <source>Outputs (shifted right)</source>
        <translation>输出（右移一位）</translation>
    </message>
    <message>
        <source>Output embedding</source>
        <translation>输出嵌入</translation>
    </message>
    <message>
        <source>Masked multi-head attention</source>
        <translation>带掩码的多头注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>线性层</translation>
    </message>
    <message>
        <source>Softmax</source>
        <translation>softmax</translation>
    </message>
    <message>
        <source>Output probabilities</source>
        <translation>输出概率</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>Text (shifted right)</source>
        <translation>文本（右移一位）</translation>
    </message>
    <message>
        <source>Token embedding</source>
        <translation>词元嵌入</translation>
    </message>
    <message>
        <source>Next-token probabilities</source>
        <translation>下一个词元的概率</translation>
    </message>
    <message>
        <source>+ Learned positions</source>
        <translation>+ 可学习的位置编码</translation>
    </message>
</context>
<context>
    <name>as::ui::AttentionKind</name>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>Decoder cross-attention</source>
        <translation>解码器交叉注意力</translation>
    </message>
</context>
<context>
    <name>as::ui::AttentionView</name>
    <message>
        <source>Encoder self-attention (source × source)</source>
        <translation>编码器自注意力（源序列 × 源序列）</translation>
    </message>
    <message>
        <source>Decoder self-attention (target × target)</source>
        <translation>解码器自注意力（目标序列 × 目标序列）</translation>
    </message>
    <message>
        <source>Cross-attention (target × source)</source>
        <translation>交叉注意力（目标序列 × 源序列）</translation>
    </message>
    <message>
        <source>Which attention to show: queries are rows, keys are columns</source>
        <translation>显示哪种注意力：行是查询，列是键</translation>
    </message>
    <message>
        <source>Layer (1 = nearest the embeddings)</source>
        <translation>层（1 = 最靠近嵌入的一层）</translation>
    </message>
    <message>
        <source>Replay the attention recorded during training; at the right end the view follows the latest step</source>
        <translation>回放训练中记录的注意力；拖到最右端时视图跟随最新的步</translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation>注意力：</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>head %1: H = %2 nats (uniform: %3)</source>
        <translation>头 %1：H = %2 奈特（均匀分布：%3）</translation>
    </message>
    <message>
        <source>Export map</source>
        <translation>导出热力图</translation>
    </message>
    <message>
        <source>Export entropies</source>
        <translation>导出熵</translation>
    </message>
    <message>
        <source>No attention recorded yet.
Start training: the attention of the probe sentence appears here at every snapshot.</source>
        <translation>尚未记录注意力。
开始训练：每次快照时，探针句的注意力会显示在这里。</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Probe at step %1 — source: %2   target input: %3</source>
        <translation>第 %1 步的探针 — 源序列：%2   目标输入：%3</translation>
    </message>
    <message>
        <source>head %1 · H=%2</source>
        <translation>头 %1 · H=%2</translation>
    </message>
    <message>
        <source>mean of heads · H=%1</source>
        <translation>各头平均 · H=%1</translation>
    </message>
    <message>
        <source>mean of %1 heads</source>
        <translation>%1 个头的平均</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>%1 · %2 · layer %3
entropy H = %4 nats</source>
        <translation>%1 · %2 · 第 %3 层
熵 H = %4 奈特</translation>
    </message>
    <message>
        <source>query %1: %2</source>
        <translation>查询 %1：%2</translation>
    </message>
    <message>
        <source>key %1: %2</source>
        <translation>键 %1：%2</translation>
    </message>
    <message>
        <source>mean of heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>%1
query %2 (%3) → key %4 (%5)
weight %6</source>
        <translation>%1
查询 %2（%3）→ 键 %4（%5）
权重 %6</translation>
    </message>
    <message>
        <source>Probe at step %1 — input: %2</source>
        <translation>第 %1 步的探针 — 输入：%2</translation>
    </message>
    <message>
        <source>nats</source>
        <translation>奈特</translation>
    </message>
    <message>
        <source>Mean row entropy per head (dashed: uniform over the keys)</source>
        <translation>每个头的平均行熵（虚线：在所有键上均匀分布）</translation>
    </message>
</context>
<context>
    <name>as::ui::BeamTreeDiagram</name>
    <message>
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已结束</translation>
    </message>
    <message>
        <source>pruned</source>
        <translation>剪除</translation>
    </message>
    <message>
        <source>best hypothesis</source>
        <translation>最佳假设</translation>
    </message>
    <message>
        <source>%1: the start of every hypothesis</source>
        <translation>%1：每个假设的起点</translation>
    </message>
    <message>
        <source>“%1”, step %2, %3
log p(token | prefix) = %4
score (sum of log p) = %5</source>
        <translation>“%1”，第 %2 步，%3
log p(词元 | 前缀) = %4
分数（log p 之和）= %5</translation>
    </message>
    <message>
        <source>length-penalised score = %1</source>
        <translation>长度惩罚后的分数 = %1</translation>
    </message>
    <message>
        <source>start</source>
        <translation>起点</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
</context>
<context>
    <name>as::ui::BeamTreeView</name>
    <message>
        <source>%1 → %2: %3</source>
        <translation>%1 → %2：%3</translation>
    </message>
    <message>
        <source>Beam search keeps the k likeliest prefixes at every step. Choose “Beam search” and translate to see its tree: kept, finished and pruned hypotheses; hover a node for its log-probability and scores, click it for its prefix&apos;s cross-attention.</source>
        <translation>束搜索在每一步保留 k 个最可能的前缀。选择“束搜索”并翻译，即可看到它的搜索树：保留、已结束和剪除的假设；鼠标悬停在节点上可看其对数概率和分数，点击节点可看其前缀的交叉注意力。</translation>
    </message>
    <message>
        <source>Cross-attention of the selected node&apos;s prefix:</source>
        <translation>所选节点前缀的交叉注意力：</translation>
    </message>
    <message>
        <source>Decoder layer of the cross-attention</source>
        <translation>交叉注意力所在的解码器层</translation>
    </message>
    <message>
        <source>Attention head</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>source token (key)</source>
        <translation>源词元（键）</translation>
    </message>
    <message>
        <source>token produced</source>
        <translation>生成的词元</translation>
    </message>
    <message>
        <source>Click a node of the tree
to see its prefix&apos;s cross-attention</source>
        <translation>点击树中的节点
查看其前缀的交叉注意力</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Click a node (or use the arrow keys) to see its prefix.</source>
        <translation>点击一个节点（或使用方向键）查看其前缀。</translation>
    </message>
    <message>
        <source>The root &lt;s&gt; has no token of its own: click a later node</source>
        <translation>根节点 &lt;s&gt; 没有自己的词元：请点击后面的节点</translation>
    </message>
    <message>
        <source>Cross-attention of “%1” · layer %2 · head %3</source>
        <translation>“%1”的交叉注意力 · 第 %2 层 · 头 %3</translation>
    </message>
</context>
<context>
    <name>as::ui::CrossAttentionPanel</name>
    <message>
        <source>output %1 (step %2)</source>
        <translation>输出 %1（第 %2 步）</translation>
    </message>
    <message>
        <source>source %1: %2</source>
        <translation>源 %1：%2</translation>
    </message>
    <message>
        <source> (unknown: read as &lt;unk&gt;)</source>
        <translation>（未知：读作 &lt;unk&gt;）</translation>
    </message>
    <message>
        <source>output %1 (step %2) → source %3%4
weight %5</source>
        <translation>输出 %1（第 %2 步）→ 源 %3%4
权重 %5</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>mean of heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Decoder layer of the cross-attention</source>
        <translation>交叉注意力所在的解码器层</translation>
    </message>
    <message>
        <source>One head, or the mean over the heads</source>
        <translation>一个头，或各头平均</translation>
    </message>
    <message>
        <source>Translate a sentence
to see its cross-attention</source>
        <translation>翻译一个句子
以查看其交叉注意力</translation>
    </message>
    <message>
        <source>source token (key)</source>
        <translation>源词元（键）</translation>
    </message>
    <message>
        <source>output token (query)</source>
        <translation>输出词元（查询）</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
</context>
<context>
    <name>as::ui::DecodingView</name>
    <message>
        <source>◀ Back</source>
        <translation>◀ 后退</translation>
    </message>
    <message>
        <source>One step back (←; Home: the first step)</source>
        <translation>后退一步（←；Home：第一步）</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>单步 ▶</translation>
    </message>
    <message>
        <source>The next step: the chosen token is fed back (→; End: the last step)</source>
        <translation>下一步：把选中的词元送回解码器（→；End：最后一步）</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Step through to the end, one step every half second (R); again to pause</source>
        <translation>一直走到结束，每半秒一步（R）；再按一次暂停</translation>
    </message>
    <message>
        <source>The decoding step shown</source>
        <translation>显示的解码步</translation>
    </message>
    <message>
        <source>step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>The decoder layer whose self- and cross-attention are shown</source>
        <translation>显示哪一层解码器的自注意力和交叉注意力</translation>
    </message>
    <message>
        <source>The head whose causal self-attention is shown</source>
        <translation>显示哪个头的因果自注意力</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Self-attention head</source>
        <translation>自注意力头</translation>
    </message>
    <message>
        <source>From this step on the free-running decoder reads its own output, which the reference does not contain: exposure to its own mistakes</source>
        <translation>从这一步起，自由运行的解码器读到的是它自己的输出，而参考译文里没有这些词：它开始暴露在自己的错误之下（exposure bias）</translation>
    </message>
    <message>
        <source>Train a few steps or open a model: the probe sentence (chosen above the Attention view) is decoded here one token at a time.</source>
        <translation>训练几步或打开一个模型：探针句子（在注意力视图上方选择）会在这里逐个词元地解码。</translation>
    </message>
    <message>
        <source>Free-running: greedy decoding feeds back its own choice</source>
        <translation>自由运行：贪心解码把自己的选择送回</translation>
    </message>
    <message>
        <source>Teacher-forced: the reference is fed back</source>
        <translation>教师强制：送回的是参考译文</translation>
    </message>
    <message>
        <source>The decoder&apos;s input at this step: &lt;s&gt;, then the tokens fed back so far; after the arrow, the token this step feeds back</source>
        <translation>这一步解码器的输入：&lt;s&gt;，然后是到目前为止送回的词元；箭头之后是这一步送回的词元</translation>
    </message>
    <message>
        <source>Self-attention · grey: masked</source>
        <translation>自注意力 · 灰色：已掩码</translation>
    </message>
    <message>
        <source>key (input so far)</source>
        <translation>键（到目前为止的输入）</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>%1 → %2: masked (a later token)</source>
        <translation>%1 → %2：已掩码（后面的词元）</translation>
    </message>
    <message>
        <source>%1 → %2
weight %3</source>
        <translation>%1 → %2
权重 %3</translation>
    </message>
    <message>
        <source>Likeliest next tokens · highlighted: fed back</source>
        <translation>最可能的下一个词元 · 高亮：送回的词元</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>%1: p = %2</source>
        <translation>%1：p = %2</translation>
    </message>
    <message>
        <source>source token</source>
        <translation>源词元</translation>
    </message>
    <message>
        <source>head %1 → %2
weight %3</source>
        <translation>头 %1 → %2
权重 %3</translation>
    </message>
    <message>
        <source>Logit lens: the generator applied to each decoder layer&apos;s output (through the final LayerNorm in pre-norm): that layer&apos;s top-1 next token and its probability, per input position. The last layer&apos;s is the model&apos;s prediction</source>
        <translation>Logit 透镜：把输出层（生成器）用在每一层解码器的输出上（前置归一化时先经过最后的层归一化）：每个输入位置上，这一层排第一的下一个词元及其概率。最后一层的就是模型的预测</translation>
    </message>
    <message>
        <source>Export:</source>
        <translation>导出：</translation>
    </message>
    <message>
        <source>self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>next tokens</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Logit lens: each layer&apos;s top-1 next token (probability)</source>
        <translation>Logit 透镜：每一层排第一的下一个词元（概率）</translation>
    </message>
    <message>
        <source>decoder %1</source>
        <translation>解码器第 %1 层</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation>源序列：%1</translation>
    </message>
    <message>
        <source>Reference: %1</source>
        <translation>参考译文：%1</translation>
    </message>
    <message>
        <source>Weights of step %1</source>
        <translation>第 %1 步的权重</translation>
    </message>
    <message>
        <source>Free-running and teacher-forced feed back the same tokens at every step.</source>
        <translation>自由运行和教师强制在每一步送回的词元都相同。</translation>
    </message>
    <message>
        <source>◆ The runs part at &lt;a href=&quot;divergence&quot;&gt;step %1&lt;/a&gt;: free-running feeds back &lt;b&gt;%2&lt;/b&gt;, the reference &lt;b&gt;%3&lt;/b&gt;. From there on the free-running decoder reads its own output.%4</source>
        <translation>◆ 两次运行在&lt;a href=&quot;divergence&quot;&gt;第 %1 步&lt;/a&gt;分开：自由运行送回 &lt;b&gt;%2&lt;/b&gt;，参考译文是 &lt;b&gt;%3&lt;/b&gt;。从那里开始，自由运行的解码器读到的是它自己的输出。%4</translation>
    </message>
    <message>
        <source>(nothing: it stopped)</source>
        <translation>（没有：它已停止）</translation>
    </message>
    <message>
        <source>(nothing: it ended)</source>
        <translation>（没有：它已结束）</translation>
    </message>
    <message>
        <source> (%1 steps ahead)</source>
        <translation>（在 %1 步之后）</translation>
    </message>
    <message>
        <source>Decoder input: %1 &amp;nbsp;⟶ %2</source>
        <translation>解码器输入：%1 &amp;nbsp;⟶ %2</translation>
    </message>
    <message>
        <source>Step %1: chose &lt;b&gt;%2&lt;/b&gt; (p = %3) and feeds it back.</source>
        <translation>第 %1 步：选择 &lt;b&gt;%2&lt;/b&gt;（p = %3）并把它送回。</translation>
    </message>
    <message>
        <source>Step %1: predicts &lt;b&gt;%2&lt;/b&gt; (p = %3); the reference&apos;s &lt;b&gt;%4&lt;/b&gt; (p = %5) is fed back.</source>
        <translation>第 %1 步：预测 &lt;b&gt;%2&lt;/b&gt;（p = %3）；送回的是参考译文的 &lt;b&gt;%4&lt;/b&gt;（p = %5）。</translation>
    </message>
    <message>
        <source>It has ended (&lt;/s&gt;).</source>
        <translation>已结束（&lt;/s&gt;）。</translation>
    </message>
    <message>
        <source>It stopped at the length limit.</source>
        <translation>在长度上限处停止。</translation>
    </message>
    <message>
        <source>Cross-attention of position %1 (%2)
over the source · layer %3</source>
        <translation>位置 %1（%2）对源序列的
交叉注意力 · 第 %3 层</translation>
    </message>
    <message>
        <source>%1 (fed)</source>
        <translation>%1（送回）</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Layer %1 at position %2 (%3): %4, p = %5</source>
        <translation>第 %1 层，位置 %2（%3）：%4，p = %5</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>%1: p = %2, after temperature and the cut %3</source>
        <translation>%1：p = %2，温度和截断之后 %3</translation>
    </message>
    <message>
        <source>Prompt: %1</source>
        <translation>提示：%1</translation>
    </message>
    <message>
        <source>Sampled: temperature %1, top-k %2, top-p %3, seed %4</source>
        <translation>采样：温度 %1，top-k %2，top-p %3，种子 %4</translation>
    </message>
    <message>
        <source>Free-running: sampling feeds back the token drawn</source>
        <translation>自由运行：采样，把抽到的词元送回</translation>
    </message>
    <message>
        <source>Step %1: drew &lt;b&gt;%2&lt;/b&gt; (p = %3; %4 after temperature and the cut) and feeds it back.</source>
        <translation>第 %1 步：抽到 &lt;b&gt;%2&lt;/b&gt;（p = %3；温度和截断之后 %4），并把它送回。</translation>
    </message>
    <message>
        <source>Next tokens: the model&apos;s p, and after
temperature and the cut (orange) · highlighted: drawn</source>
        <translation>下一个词元：模型的 p，以及
温度和截断之后的 p（橙色）· 高亮：抽到的</translation>
    </message>
    <message>
        <source>Draw each token from the model&apos;s distribution instead of taking the likeliest (greedy); the bars then show each token&apos;s probability before and after temperature and the cut. Moving a control samples again at once</source>
        <translation>从模型的分布中抽取每个词元，而不是取概率最高的（贪心解码）；柱状图随后显示每个词元在温度和截断之前、之后的概率。移动任一控件会立即重新采样</translation>
    </message>
</context>
<context>
    <name>as::ui::EmbeddingView</name>
    <message>
        <source>Source embedding: the encoder&apos;s input vector of each source token.</source>
        <translation>源嵌入：编码器中每个源词元的输入向量。</translation>
    </message>
    <message>
        <source>Target embedding: the decoder&apos;s input vector of each target token.</source>
        <translation>目标嵌入：解码器中每个目标词元的输入向量。</translation>
    </message>
    <message>
        <source>Generator: the output row of each target token (its logit is the row · the decoder&apos;s state + bias). Not tied to the target embedding: a parameter of its own (core/SPEC.md §2.6).</source>
        <translation>输出层（生成器）：每个目标词元的输出行（其 logit 为该行 · 解码器状态 + 偏置）。与目标嵌入不共享：是独立的参数（core/SPEC.md §2.6）。</translation>
    </message>
    <message>
        <source>source embedding</source>
        <translation>源嵌入</translation>
    </message>
    <message>
        <source>target embedding</source>
        <translation>目标嵌入</translation>
    </message>
    <message>
        <source>generator (output rows)</source>
        <translation>输出层（生成器）的行</translation>
    </message>
    <message>
        <source>Which table of token vectors to project</source>
        <translation>投影哪一张词元向量表</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表</translation>
    </message>
    <message>
        <source>Embedding space: computed while this tab is shown</source>
        <translation>嵌入空间：仅在显示此标签页时计算</translation>
    </message>
    <message>
        <source>PC1</source>
        <translation>PC1</translation>
    </message>
    <message>
        <source>PC2</source>
        <translation>PC2</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>its nearest neighbours</source>
        <translation>最近邻</translation>
    </message>
    <message>
        <source>the token clicked</source>
        <translation>点击的词元</translation>
    </message>
    <message>
        <source>%1 (id %2)
PC1 %3 · PC2 %4
click for its nearest neighbours</source>
        <translation>%1（id %2）
PC1 %3 · PC2 %4
点击查看其最近邻</translation>
    </message>
    <message>
        <source>Click a token to list its 10 nearest neighbours by cosine similarity.</source>
        <translation>点击一个词元，按余弦相似度列出它的 10 个最近邻。</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>id</source>
        <translation>id</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>余弦</translation>
    </message>
    <message>
        <source>Double-click a neighbour to select it</source>
        <translation>双击一个近邻以选中它</translation>
    </message>
    <message>
        <source>PC1 (%1 of the variance)</source>
        <translation>PC1（占方差的 %1）</translation>
    </message>
    <message>
        <source>PC2 (%1 of the variance)</source>
        <translation>PC2（占方差的 %1）</translation>
    </message>
    <message>
        <source>the %1 most frequent of %2 tokens shown</source>
        <translation>显示了 %2 个词元中最常见的 %1 个</translation>
    </message>
    <message>
        <source>all %1 tokens</source>
        <translation>全部 %1 个词元</translation>
    </message>
    <message>
        <source>%1 at step %2 · %3 · principal components of all %4 rows</source>
        <translation>%1 · 第 %2 步 · %3 · 全部 %4 行的主成分</translation>
    </message>
    <message>
        <source>Nearest to “%1” (id %2) in the %3, by cosine similarity, at step %4</source>
        <translation>按余弦相似度，第 %4 步时%3中离“%1”（id %2）最近的词元</translation>
    </message>
    <message>
        <source>Generator: the output row of each target token (its logit is the row · the decoder&apos;s state + bias). Tied: the same matrix as the target embedding, used without its √d_model scale (core/SPEC.md §2.6).</source>
        <translation>输出层（生成器）：每个目标词元的输出行（其 logit 为该行 · 解码器状态 + 偏置）。与目标嵌入共享：是同一个矩阵，使用时不乘 √d_model（core/SPEC.md §2.6）。</translation>
    </message>
    <message>
        <source>Source embedding: the encoder&apos;s input vector of each token. Tied: one matrix with the target embedding and the generator, over one shared vocabulary (core/SPEC.md §2.6).</source>
        <translation>源嵌入：编码器中每个词元的输入向量。与目标嵌入和输出层（生成器）共享：是同一个矩阵，基于同一个共享词表（core/SPEC.md §2.6）。</translation>
    </message>
</context>
<context>
    <name>as::ui::HeadDynamicsView</name>
    <message>
        <source>entropy (nats)</source>
        <translation>熵（奈特）</translation>
    </message>
    <message>
        <source>confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>diagonal ±1</source>
        <translation>对角线 ±1</translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation>着色依据</translation>
    </message>
    <message>
        <source>Train to see the heads form: the probe&apos;s attention is recorded as training goes, one column per record.</source>
        <translation>训练后可看到各头逐渐成形：训练过程中会记录探针的注意力，每条记录一列。</translation>
    </message>
    <message>
        <source>step (one column per record)</source>
        <translation>步（每条记录一列）</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>head \ record</source>
        <translation>头 \ 记录</translation>
    </message>
    <message>
        <source>%1 · layer %2</source>
        <translation>%1 · 第 %2 层</translation>
    </message>
    <message>
        <source>Each a mean over the probe&apos;s query positions (eval/attention_stats.h):
entropy: −Σ a ln a of a query&apos;s attention (uniform over n keys: ln n)
confidence: its largest weight (Voita et al. 2019)
diagonal ±1: its mass on the keys within ±1 of t·(S−1)/(T−1), the diagonal with the
source length scaled to the target length (cross-attention: a monotonic alignment;
self-attention: the previous, same and next token)
punctuation mass: its weight on punctuation tokens (。，？！ . , ? !); uniform attention
puts the punctuation share there, a punctuation head many times more
alignment: over all queries, the correlation of the query position with the position
of its largest weight (1: the keys move forward with the queries, a diagonal)</source>
        <translation>均为探针各查询位置上的平均值（eval/attention_stats.h）：
熵：一个查询的注意力的 −Σ a ln a（在 n 个键上均匀分布时为 ln n）
置信度：其最大权重（Voita et al. 2019）
对角线 ±1：其落在 t·(S−1)/(T−1) 附近 ±1 个键上的权重之和，即把源序列长度缩放到
目标序列长度后的对角线（交叉注意力：单调对齐；
自注意力：前一个、同一个和后一个词元）
标点权重：其放在标点词元（。，？！ . , ? !）上的权重；均匀注意力放在那里的
是标点占比，标点头则是它的许多倍
对齐度：对所有查询，查询位置与其最大权重所在位置的相关系数
（1：键随查询向前移动，即一条对角线）</translation>
    </message>
    <message>
        <source>punctuation mass</source>
        <translation>标点权重</translation>
    </message>
    <message>
        <source>alignment</source>
        <translation>对齐度</translation>
    </message>
    <message>
        <source>%1 · layer %2 · head %3
step %4 (record %5 of %6)
entropy %7 nats · confidence %8 · diagonal ±1 %9
punctuation mass %10 (uniform %11, ×%12) · alignment %13
click: this head at this step in Attention</source>
        <translation>%1 · 第 %2 层 · 头 %3
第 %4 步（第 %5 / %6 条记录）
熵 %7 奈特 · 置信度 %8 · 对角线 ±1 %9
标点权重 %10（均匀 %11，×%12）· 对齐度 %13
点击：在“注意力”中查看该头在该步的情况</translation>
    </message>
    <message>
        <source>%1 records, steps %2 – %3 · probe: %4 · click a cell to see that head at that step in Attention</source>
        <translation>%1 条记录，第 %2 – %3 步 · 探针：%4 · 点击一个格子，在“注意力”中查看该头在该步的情况</translation>
    </message>
</context>
<context>
    <name>as::ui::HeadsView</name>
    <message>
        <source>importance |∂L/∂ξ|</source>
        <translation>头重要性 |∂L/∂ξ|</translation>
    </message>
    <message>
        <source>ΔNLL when masked</source>
        <translation>掩码后的 ΔNLL</translation>
    </message>
    <message>
        <source>confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>entropy (nats)</source>
        <translation>熵（奈特）</translation>
    </message>
    <message>
        <source>importance: mean over validation pairs of |∂L/∂ξ_h| (Michel et al. 2019) · ΔNLL: the mean token NLL with the head alone masked, minus without · confidence: mean largest attention weight (Voita et al. 2019) · entropy: mean −Σ a log a of a query&apos;s attention</source>
        <translation>头重要性：验证句对上 |∂L/∂ξ_h| 的平均值（Michel et al. 2019）· ΔNLL：只掩码该头时每个词元的平均 NLL 减去不掩码时的值 · 置信度：平均最大注意力权重（Voita et al. 2019）· 熵：一个查询的注意力的平均 −Σ a log a</translation>
    </message>
    <message>
        <source>Score heads</source>
        <translation>给头打分</translation>
    </message>
    <message>
        <source>Score every head on the validation pairs with the current weights, in the background (Ctrl+H)</source>
        <translation>用当前权重在验证句对上给每个头打分，在后台进行（Ctrl+H）</translation>
    </message>
    <message>
        <source>Pruning curve</source>
        <translation>剪枝曲线</translation>
    </message>
    <message>
        <source>Validation BLEU and NLL with 0, 1, 2, … heads masked, least important first (Michel et al. 2019, Fig. 3), in the background</source>
        <translation>掩码 0、1、2、… 个头（按重要性从低到高）时的验证 BLEU 和 NLL（Michel et al. 2019，图 3），在后台进行</translation>
    </message>
    <message>
        <source>Unmute all</source>
        <translation>全部取消静音</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Score heads to colour the grids; click a head to mute it.</source>
        <translation>给头打分后网格会着色；点击一个头可将其静音。</translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation>着色依据</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>
importance %1 · ΔNLL %2
confidence %3 · entropy %4</source>
        <translation>
头重要性 %1 · ΔNLL %2
置信度 %3 · 熵 %4</translation>
    </message>
    <message>
        <source>
muted: click to unmute</source>
        <translation>
已静音：点击取消静音</translation>
    </message>
    <message>
        <source>
click to mute</source>
        <translation>
点击静音</translation>
    </message>
    <message>
        <source>Pruning: heads masked in increasing order of importance</source>
        <translation>剪枝：按头重要性从低到高依次掩码</translation>
    </message>
    <message>
        <source>heads masked</source>
        <translation>已掩码的头数</translation>
    </message>
    <message>
        <source>validation BLEU</source>
        <translation>验证 BLEU</translation>
    </message>
    <message>
        <source>validation NLL</source>
        <translation>验证 NLL</translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>NLL (right axis)</source>
        <translation>NLL（右轴）</translation>
    </message>
    <message>
        <source>%1 heads masked: BLEU %2, NLL %3</source>
        <translation>掩码 %1 个头：BLEU %2，NLL %3</translation>
    </message>
    <message>
        <source>Step %1, %2 validation pairs, no head muted: NLL %3 · BLEU %4</source>
        <translation>第 %1 步，%2 个验证句对，没有静音的头：NLL %3 · BLEU %4</translation>
    </message>
    <message numerus="yes">
        <source>Step %1, %2 validation pairs, %n head(s) muted: NLL %3 (%4 against none) · BLEU %5 (%6)</source>
        <translation>
            <numerusform>第 %1 步，%2 个验证句对，%n 个头已静音：NLL %3（与不静音相比 %4）· BLEU %5（%6）</numerusform>
        </translation>
    </message>
    <message>
        <source>Score on…</source>
        <translation>在…上打分</translation>
    </message>
    <message>
        <source>Score every head on the sentence pairs of a corpus file you choose (source&lt;TAB&gt;target per line, or an Anki file), as attention-studio-cli heads --data does: for a model opened without its data, or to compare with other text</source>
        <translation>在你选择的语料文件（每行 源句&lt;TAB&gt;目标句，或 Anki 文件）的句对上给每个头打分，与 attention-studio-cli heads --data 相同：用于打开时不带数据的模型，或与其他文本比较</translation>
    </message>
    <message>
        <source>%1 · layer %2 · head %3</source>
        <translation>%1 · 第 %2 层 · 头 %3</translation>
    </message>
    <message>
        <source>Step %1, %2 validation sentences, no head muted: NLL %3</source>
        <translation>第 %1 步，%2 个验证句子，没有静音的头：NLL %3</translation>
    </message>
    <message numerus="yes">
        <source>Step %1, %2 validation sentences, %n head(s) muted: NLL %3 (%4 against none)</source>
        <translation>
            <numerusform>第 %1 步，%2 个验证句子，%n 个头已静音：NLL %3（与不静音相比 %4）</numerusform>
        </translation>
    </message>
    <message>
        <source>NLL</source>
        <translation>NLL</translation>
    </message>
</context>
<context>
    <name>as::ui::HealthView</name>
    <message>
        <source>Tensors in forward order. Select some (Ctrl/Shift+click) for the line plots; the current one&apos;s histograms are shown below.</source>
        <translation>张量按前向顺序排列。选中若干个（Ctrl/Shift+点击）以绘制折线图；下方显示当前张量的直方图。</translation>
    </message>
    <message>
        <source>log10 ‖Δw‖/‖w‖</source>
        <translation>log10 ‖Δw‖/‖w‖</translation>
    </message>
    <message>
        <source>Update ratio per tensor and step · white: the 1e-3 rule of thumb · blue: slower · red: faster</source>
        <translation>每个张量每步的更新比例 · 白色：1e-3 经验值 · 蓝色：较慢 · 红色：较快</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Train a few steps to see each tensor&apos;s update ratio</source>
        <translation>训练几步后可看到每个张量的更新比例</translation>
    </message>
    <message>
        <source>first non-finite gradient</source>
        <translation>第一个非有限梯度</translation>
    </message>
    <message>
        <source>%1
step %2 · update ratio %3 · gradient norm %4 · weight norm %5</source>
        <translation>%1
第 %2 步 · 更新比例 %3 · 梯度范数 %4 · 权重范数 %5</translation>
    </message>
    <message>
        <source>Update ratio ‖Δw‖/‖w‖
(band: 1e-4 … 1e-2 around 1e-3)</source>
        <translation>更新比例 ‖Δw‖/‖w‖
（带：1e-3 附近的 1e-4 … 1e-2）</translation>
    </message>
    <message>
        <source>Gradient L2 norm (before clipping)</source>
        <translation>梯度 L2 范数（裁剪前）</translation>
    </message>
    <message>
        <source>log10 |x|</source>
        <translation>log10 |x|</translation>
    </message>
    <message>
        <source>log10 share</source>
        <translation>log10 占比</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>The chosen tensor&apos;s histograms, at intervals</source>
        <translation>所选张量的直方图（按间隔记录）</translation>
    </message>
    <message>
        <source>Tensors (forward order)</source>
        <translation>张量（前向顺序）</translation>
    </message>
    <message>
        <source>first non-finite gradient: %1 at step %2</source>
        <translation>第一个非有限梯度：%1，第 %2 步</translation>
    </message>
    <message>
        <source>step %1: the loss is not finite</source>
        <translation>第 %1 步：损失不是有限值</translation>
    </message>
    <message>
        <source>%1 · step %2  </source>
        <translation>%1 · 第 %2 步  </translation>
    </message>
    <message>
        <source>%1 of %2
histogram per step</source>
        <translation>%1 / %2
每步的直方图</translation>
    </message>
    <message>
        <source>ms/step</source>
        <translation>毫秒/步</translation>
    </message>
    <message>
        <source>% of step</source>
        <translation>占一步的 %</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>Products: attention Q, K, V, O</source>
        <translation>矩阵乘法：注意力 Q、K、V、O</translation>
    </message>
    <message>
        <source>Products: attention scores QKᵀ</source>
        <translation>矩阵乘法：注意力分数 QKᵀ</translation>
    </message>
    <message>
        <source>Products: attention weights · V</source>
        <translation>矩阵乘法：注意力权重 · V</translation>
    </message>
    <message>
        <source>Products: feed-forward</source>
        <translation>矩阵乘法：前馈神经网络</translation>
    </message>
    <message>
        <source>Products: generator</source>
        <translation>矩阵乘法：输出层（生成器）</translation>
    </message>
    <message>
        <source>Attention softmax and masking</source>
        <translation>注意力 softmax 与掩码</translation>
    </message>
    <message>
        <source>LayerNorm</source>
        <translation>层归一化</translation>
    </message>
    <message>
        <source>Embedding and positional encoding</source>
        <translation>嵌入与位置编码</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
    <message>
        <source>Waiting for threads</source>
        <translation>等待线程</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Where a step&apos;s time goes: train a few steps</source>
        <translation>一步训练的时间花在哪里：请先训练几步</translation>
    </message>
    <message>
        <source>Step (wall time)</source>
        <translation>一步（实际耗时）</translation>
    </message>
    <message>
        <source>Histograms</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>Time per step</source>
        <translation>每步耗时</translation>
    </message>
    <message>
        <source>Where a training step&apos;s time goes: the products by layer kind, softmax, LayerNorm, dropout, the loss, Adam, waits</source>
        <translation>训练一步的时间花在哪里：按层类型分的矩阵乘法、softmax、层归一化、dropout（随机失活）、损失、Adam、等待线程</translation>
    </message>
    <message>
        <source>Biases and their gradients</source>
        <translation>偏置及其梯度</translation>
    </message>
    <message>
        <source>Gradient: zeroed, its norm, clipping</source>
        <translation>梯度：清零、梯度范数、梯度裁剪</translation>
    </message>
    <message>
        <source>wait, ms/step</source>
        <translation>等待，毫秒/步</translation>
    </message>
    <message>
        <source>Time the training thread waited for the other threads in the parallel regions this category started (part of &quot;Waiting for threads&quot;)</source>
        <translation>训练线程在该类别启动的并行区域中等待其他线程的时间（属于“等待线程”）</translation>
    </message>
    <message>
        <source>Computed by</source>
        <translation>计算者</translation>
    </message>
    <message>
        <source>The library that computed the products of this kind, in each pass: the fastest on this machine when it was measured at first use (or by bench --retune), else OpenBLAS</source>
        <translation>每个阶段计算这类矩阵乘法的库：首次使用时（或 bench --retune）在本机测得最快的那个，否则为 OpenBLAS</translation>
    </message>
    <message>
        <source>the engine&apos;s own loops</source>
        <translation>引擎自己的循环</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>input gradient</source>
        <translation>输入梯度</translation>
    </message>
    <message>
        <source>weight gradient</source>
        <translation>权重梯度</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Dropout (and the activation)</source>
        <translation>Dropout（随机失活）与激活函数</translation>
    </message>
    <message>
        <source>oneDNN bfloat16</source>
        <translation>oneDNN bfloat16</translation>
    </message>
    <message>
        <source>oneDNN, bfloat16 inputs and float32 sums (every pass)</source>
        <translation>oneDNN，bfloat16 输入、float32 求和（所有计算）</translation>
    </message>
    <message numerus="yes">
        <source>Where a step&apos;s time goes (the training thread, %n step(s); bfloat16 mixed precision)</source>
        <translation>
            <numerusform>一步的时间花在哪里（训练线程，%n 步；bfloat16 混合精度）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Where a step&apos;s time goes (the training thread, %n step(s); float32)</source>
        <translation>
            <numerusform>一步的时间花在哪里（训练线程，%n 步；float32）</numerusform>
        </translation>
    </message>
    <message>
        <source>dashed: %1</source>
        <translation>虚线：%1</translation>
    </message>
    <message>
        <source>oneDNN bfloat16 · %1</source>
        <translation>oneDNN bfloat16 · %1</translation>
    </message>
    <message>
        <source>oneDNN, bfloat16 inputs and float32 sums in the CPU&apos;s %1 units (every pass)</source>
        <translation>oneDNN，bfloat16 输入、float32 求和，在 CPU 的 %1 单元中（所有计算）</translation>
    </message>
    <message>
        <source>own bfloat16</source>
        <translation>引擎自己的 bfloat16</translation>
    </message>
    <message>
        <source>the engine&apos;s own kernel, bfloat16 inputs and float32 sums (every pass)</source>
        <translation>引擎自己的内核，bfloat16 输入、float32 求和（所有计算）</translation>
    </message>
    <message>
        <source>own bfloat16 · %1</source>
        <translation>引擎自己的 bfloat16 · %1</translation>
    </message>
    <message>
        <source>the engine&apos;s own kernel, bfloat16 inputs and float32 sums in the CPU&apos;s %1 units (every pass)</source>
        <translation>引擎自己的内核，bfloat16 输入、float32 求和，在 CPU 的 %1 单元中（所有计算）</translation>
    </message>
</context>
<context>
    <name>as::ui::HelpBrowser</name>
    <message>
        <source>User guide — Attention Studio</source>
        <translation>用户指南 — Attention Studio</translation>
    </message>
    <message>
        <source>%1 — User guide — Attention Studio</source>
        <translation>%1 — 用户指南 — Attention Studio</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>后退</translation>
    </message>
    <message>
        <source>The page before (%1)</source>
        <translation>上一页（%1）</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前进</translation>
    </message>
    <message>
        <source>The page after (%1)</source>
        <translation>下一页（%1）</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>The user guide&apos;s contents</source>
        <translation>用户指南的目录</translation>
    </message>
</context>
<context>
    <name>as::ui::InductionView</name>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>layer \ head</source>
        <translation>层 \ 头</translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation>着色依据</translation>
    </message>
    <message>
        <source>Each head&apos;s score on the probe of repeated random tokens (core/SPEC.md §13):
induction: its mean attention from each token of a later copy to the token after that
token&apos;s first occurrence (Olsson et al.&apos;s prefix matching; 1: a perfect induction head)
previous-token: its mean attention to the token just before
duplicate-token: its mean attention to the token&apos;s first occurrence itself
copying: how much its output raises, directly, the logit of the token an induction
head would copy (a direct logit attribution, in logits)</source>
        <translation>每个头在重复随机词元探针上的分数（core/SPEC.md §13）：
归纳：从后续拷贝中每个词元，到该词元首次出现位置之后那个词元的平均注意力
（Olsson 等的前缀匹配；1 表示完美的归纳头）
前一词元：对紧挨着的前一个词元的平均注意力
重复词元：对该词元首次出现位置本身的平均注意力
复制：它的输出直接把归纳头应当复制的那个词元的 logit 提高了多少
（直接 logit 归因，单位为 logit）</translation>
    </message>
    <message>
        <source>Ablate the induction head</source>
        <translation>消融归纳头</translation>
    </message>
    <message>
        <source>Ablate the previous-token head</source>
        <translation>消融前一词元头</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Unmute every head (the Heads view&apos;s mutes too)</source>
        <translation>取消所有头的静音（包括“头”视图中的静音）</translation>
    </message>
    <message>
        <source>no validation recorded</source>
        <translation>尚无验证记录</translation>
    </message>
    <message>
        <source>Replay the records of the validations; at the right end the view follows the latest</source>
        <translation>回放各次验证的记录；在最右端时视图跟随最新的一次</translation>
    </message>
    <message>
        <source>Induction scores are measured at each validation of a decoder-only model (a GPT): they appear at the first validation. Train the repeat task to watch induction heads form.</source>
        <translation>归纳分数在仅解码器模型（GPT）的每次验证时测量：第一次验证时就会出现。训练 repeat 任务，看归纳头如何形成。</translation>
    </message>
    <message>
        <source>Induction scores are measured at each validation of a decoder-only model (a GPT); this model is an encoder–decoder. Train the repeat task to watch them form.</source>
        <translation>归纳分数在仅解码器模型（GPT）的每次验证时测量；当前模型是编码器-解码器。训练 repeat 任务，看归纳头如何形成。</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Scores over training · solid: induction · dashed: previous-token</source>
        <translation>训练过程中的分数 · 实线：归纳 · 虚线：前一词元</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>score</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>In-context learning over training</source>
        <translation>训练过程中的上下文学习</translation>
    </message>
    <message>
        <source>loss (nats)</source>
        <translation>损失（nats）</translation>
    </message>
    <message>
        <source>first copies&apos; loss</source>
        <translation>第一份拷贝的损失</translation>
    </message>
    <message>
        <source>later copies&apos; loss</source>
        <translation>后续拷贝的损失</translation>
    </message>
    <message>
        <source>in-context score</source>
        <translation>上下文学习分数</translation>
    </message>
    <message>
        <source>first copies&apos; loss, with heads ablated</source>
        <translation>第一份拷贝的损失（消融部分头后）</translation>
    </message>
    <message>
        <source>with heads ablated</source>
        <translation>消融部分头后</translation>
    </message>
    <message>
        <source>in-context score, with heads ablated</source>
        <translation>上下文学习分数（消融部分头后）</translation>
    </message>
    <message>
        <source>position in the probe</source>
        <translation>探针中的位置</translation>
    </message>
    <message>
        <source>earlier head (orange: previous-token head)</source>
        <translation>更早层的头（橙色：前一词元头）</translation>
    </message>
    <message>
        <source>K-composition</source>
        <translation>K 组合</translation>
    </message>
    <message>
        <source>induction score</source>
        <translation>归纳分数</translation>
    </message>
    <message>
        <source>previous-token score</source>
        <translation>前一词元分数</translation>
    </message>
    <message>
        <source>duplicate-token score</source>
        <translation>重复词元分数</translation>
    </message>
    <message>
        <source>copying (logits)</source>
        <translation>复制（logit）</translation>
    </message>
    <message>
        <source>L%1 H%2</source>
        <translation>L%1 H%2</translation>
    </message>
    <message>
        <source>Mute %1, the top induction head, alone (its gate 0): the validations from now on are measured without it, and the later copies&apos; loss goes back up</source>
        <translation>只静音最强的归纳头 %1（门控为 0）：此后的验证都在没有它的情况下测量，后续拷贝的损失会重新升高</translation>
    </message>
    <message>
        <source>No induction head measured yet</source>
        <translation>尚未测得归纳头</translation>
    </message>
    <message>
        <source>Mute %1, the previous-token head that feeds the induction head, alone: without it the induction head cannot find the token after the earlier occurrence</source>
        <translation>只静音为归纳头提供信息的前一词元头 %1：没有它，归纳头就找不到先前出现位置之后的那个词元</translation>
    </message>
    <message>
        <source>The top induction head is in the first layer: no earlier head feeds it</source>
        <translation>最强的归纳头位于第一层：没有更早的头为它提供信息</translation>
    </message>
    <message>
        <source>%1 · layer %2 · head %3</source>
        <translation>%1 · 第 %2 层 · 头 %3</translation>
    </message>
    <message>
        <source>Muted now: %1. The validations from now on are measured without them (◆ on the in-context plot).</source>
        <translation>当前静音：%1。此后的验证都在没有它们的情况下测量（上下文学习图中的 ◆）。</translation>
    </message>
    <message>
        <source>Validations recorded: %1 (steps %2 – %3) · top induction head %4 (score %5) · later copies&apos; loss %6 against %7 in first copies</source>
        <translation>已记录的验证：%1 次（第 %2 – %3 步）· 最强归纳头 %4（分数 %5）· 后续拷贝的损失 %6，第一份拷贝为 %7</translation>
    </message>
    <message>
        <source> · with heads ablated (step %1): later copies&apos; loss %2</source>
        <translation> · 消融部分头后（第 %1 步）：后续拷贝的损失 %2</translation>
    </message>
    <message>
        <source> · phase change at step %1</source>
        <translation> · 相变出现在第 %1 步</translation>
    </message>
    <message>
        <source> · no phase change yet (top induction score ≥ %1 with the later copies %2 nat below the first)</source>
        <translation> · 尚未出现相变（条件：最强归纳分数 ≥ %1，且后续拷贝的损失比第一份拷贝低 %2 nat）</translation>
    </message>
    <message>
        <source>Heads at step %1 · measured with heads ablated</source>
        <translation>第 %1 步的各个头 · 在消融部分头的情况下测得</translation>
    </message>
    <message>
        <source>Heads at step %1 · click one to see it</source>
        <translation>第 %1 步的各个头 · 点击一个头查看它</translation>
    </message>
    <message>
        <source>induction · %1</source>
        <translation>归纳 · %1</translation>
    </message>
    <message>
        <source>previous-token · %1</source>
        <translation>前一词元 · %1</translation>
    </message>
    <message>
        <source>phase change
step %1</source>
        <translation>相变
第 %1 步</translation>
    </message>
    <message>
        <source>step %1, with heads ablated</source>
        <translation>第 %1 步（消融部分头后）</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>step %1, without ablation</source>
        <translation>第 %1 步（未消融）</translation>
    </message>
    <message>
        <source>Loss at each position of the probe · step %1</source>
        <translation>探针每个位置的损失 · 第 %1 步</translation>
    </message>
    <message>
        <source>random %1</source>
        <translation>随机 %1</translation>
    </message>
    <message>
        <source>The top induction head, %1, is in the first layer:
no earlier head can feed it.</source>
        <translation>最强的归纳头 %1 位于第一层：
没有更早的头能为它提供信息。</translation>
    </message>
    <message>
        <source>Circuit: %1 (previous-token %2) → %3 (induction %4) · K-composition %5, random %6</source>
        <translation>回路：%1（前一词元 %2）→ %3（归纳 %4）· K 组合 %5，随机 %6</translation>
    </message>
    <message>
        <source>Circuit</source>
        <translation>回路</translation>
    </message>
    <message>
        <source>layer %1 · head %2 (%3) · step %4
induction %5 · previous-token %6
duplicate-token %7 · copying %8</source>
        <translation>第 %1 层 · 头 %2（%3）· 第 %4 步
归纳 %5 · 前一词元 %6
重复词元 %7 · 复制 %8</translation>
    </message>
    <message>
        <source>
ablated when measured</source>
        <translation>
测量时已被消融</translation>
    </message>
    <message>
        <source>
click: this head in Attention</source>
        <translation>
点击：在注意力视图中查看这个头</translation>
    </message>
    <message>
        <source>%1: induction %2 · previous-token %3</source>
        <translation>%1：归纳 %2 · 前一词元 %3</translation>
    </message>
    <message>
        <source>step %1
first copies&apos; loss %2 · later copies&apos; loss %3
in-context score %4</source>
        <translation>第 %1 步
第一份拷贝的损失 %2 · 后续拷贝的损失 %3
上下文学习分数 %4</translation>
    </message>
    <message>
        <source>
with heads ablated: %1</source>
        <translation>
消融的头：%1</translation>
    </message>
    <message>
        <source>
phase change at step %1</source>
        <translation>
相变出现在第 %1 步</translation>
    </message>
    <message>
        <source>position %1 · step %2: loss %3 nats</source>
        <translation>位置 %1 · 第 %2 步：损失 %3 nats</translation>
    </message>
    <message>
        <source>
without ablation: %1</source>
        <translation>
未消融：%1</translation>
    </message>
    <message>
        <source>%1 → %2: K-composition %3 (random matrices: %4)
%1: previous-token score %5</source>
        <translation>%1 → %2：K 组合 %3（随机矩阵：%4）
%1：前一词元分数 %5</translation>
    </message>
</context>
<context>
    <name>as::ui::LessonPanel</name>
    <message>
        <source>Along the way</source>
        <translation>途中</translation>
    </message>
    <message>
        <source>Training pauses at each stop and shows its view; double-click a stop to see its view again</source>
        <translation>训练在每个停靠点暂停并显示相应的视图；双击一个停靠点可再次查看它的视图</translation>
    </message>
    <message>
        <source>Start again</source>
        <translation>重新开始</translation>
    </message>
    <message>
        <source>The lesson&apos;s run from step 0</source>
        <translation>从第 0 步重新训练这节课</translation>
    </message>
    <message>
        <source>Close the lesson</source>
        <translation>关闭课程</translation>
    </message>
    <message>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
</context>
<context>
    <name>as::ui::LossView</name>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>validation token accuracy</source>
        <translation>验证词元准确率</translation>
    </message>
    <message>
        <source>training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>training loss, smoothed</source>
        <translation>训练损失（平滑）</translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>validation accuracy (right axis)</source>
        <translation>验证准确率（右轴）</translation>
    </message>
    <message>
        <source>validation BLEU</source>
        <translation>验证 BLEU</translation>
    </message>
    <message>
        <source>validation BLEU (outer right axis)</source>
        <translation>验证 BLEU（最外侧右轴）</translation>
    </message>
    <message>
        <source>by step</source>
        <translation>按步</translation>
    </message>
    <message>
        <source>by wall time</source>
        <translation>按实际时间</translation>
    </message>
    <message>
        <source>log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <source>follow</source>
        <translation>跟随</translation>
    </message>
    <message>
        <source>Keep the whole curve in view as it grows (off after a zoom or pan)</source>
        <translation>随曲线增长保持整条曲线可见（缩放或平移后关闭）</translation>
    </message>
    <message>
        <source>Smoothing of the training loss (exponential moving average, debiased)</source>
        <translation>训练损失的平滑（指数移动平均，已去偏）</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Show all the data</source>
        <translation>显示全部数据</translation>
    </message>
    <message>
        <source>smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>step %1 · %2 s
loss %3 · smoothed %4 · lr %5</source>
        <translation>第 %1 步 · %2 秒
损失 %3 · 平滑后 %4 · 学习率 %5</translation>
    </message>
    <message>
        <source>
validation (step %1): loss %2 · accuracy %3</source>
        <translation>
验证（第 %1 步）：损失 %2 · 准确率 %3</translation>
    </message>
    <message>
        <source> · BLEU %1</source>
        <translation> · BLEU %1</translation>
    </message>
    <message>
        <source>training time (s)</source>
        <translation>训练时间（秒）</translation>
    </message>
    <message>
        <source>
NLL %1 per token (no label smoothing) · perplexity %2</source>
        <translation>
每个词元的 NLL %1（不含标签平滑）· 困惑度 %2</translation>
    </message>
    <message>
        <source>phase change (in-context learning)
step %1</source>
        <translation>相变（上下文学习）
第 %1 步</translation>
    </message>
</context>
<context>
    <name>as::ui::LrView</name>
    <message>
        <source>Learning rate (Noam schedule)</source>
        <translation>学习率（Noam 学习率调度）</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Annotated Transformer %1 : %2</source>
        <translation>Annotated Transformer %1 : %2</translation>
    </message>
    <message>
        <source>rate applied in a step</source>
        <translation>每步实际使用的学习率</translation>
    </message>
    <message>
        <source>Compare with The Annotated Transformer</source>
        <translation>与 The Annotated Transformer 对比</translation>
    </message>
    <message>
        <source>Overlay the three curves of The Annotated Transformer&apos;s figure (factor 1): d_model / warmup 512 / 4000, 512 / 8000 and 256 / 4000, over 20,000 steps</source>
        <translation>叠加 The Annotated Transformer 图中的三条曲线（系数 1）：d_model / 预热 512 / 4000、512 / 8000 和 256 / 4000，共 20,000 步</translation>
    </message>
    <message>
        <source>log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <source>Rates on a logarithmic axis</source>
        <translation>学习率使用对数坐标轴</translation>
    </message>
    <message>
        <source>d_model %1, factor %2, warmup %3</source>
        <translation>d_model %1，系数 %2，预热 %3</translation>
    </message>
    <message>
        <source>%1
step %2
rate %3</source>
        <translation>%1
第 %2 步
学习率 %3</translation>
    </message>
</context>
<context>
    <name>as::ui::MasksView</name>
    <message>
        <source>Sentence of the batch whose decoder mask and targets are shown</source>
        <translation>显示其解码器掩码和目标的批次句子</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>0 pad</source>
        <translation>0 填充</translation>
    </message>
    <message>
        <source>1 token</source>
        <translation>1 词元</translation>
    </message>
    <message>
        <source>Source padding mask (src ≠ &lt;pad&gt;)</source>
        <translation>源序列填充掩码（src ≠ &lt;pad&gt;）</translation>
    </message>
    <message>
        <source>source position</source>
        <translation>源序列位置</translation>
    </message>
    <message>
        <source>sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>0 masked</source>
        <translation>0 已掩码</translation>
    </message>
    <message>
        <source>1 allowed</source>
        <translation>1 允许</translation>
    </message>
    <message>
        <source>Decoder self-attention mask</source>
        <translation>解码器自注意力掩码（因果掩码）</translation>
    </message>
    <message>
        <source>key position</source>
        <translation>键位置</translation>
    </message>
    <message>
        <source>query position</source>
        <translation>查询位置</translation>
    </message>
    <message>
        <source>target probability q</source>
        <translation>目标概率 q</translation>
    </message>
    <message>
        <source>Label-smoothed target q</source>
        <translation>标签平滑后的目标 q</translation>
    </message>
    <message>
        <source>vocabulary id</source>
        <translation>词表 id</translation>
    </message>
    <message>
        <source>target position: id</source>
        <translation>目标位置：id</translation>
    </message>
    <message>
        <source>sentence %1, source position %2 (%3): %4</source>
        <translation>句子 %1，源序列位置 %2（%3）：%4</translation>
    </message>
    <message>
        <source>query %1 (%2), key %3 (%4): %5</source>
        <translation>查询 %1（%2），键 %3（%4）：%5</translation>
    </message>
    <message>
        <source>target position %1 (%2), id %3: q = %4</source>
        <translation>目标位置 %1（%2），id %3：q = %4</translation>
    </message>
    <message>
        <source>Batch of %1 sentences · source length %2 · target length %3 · target vocabulary %4 · label smoothing ε = %5</source>
        <translation>批次共 %1 句 · 源序列长度 %2 · 目标序列长度 %3 · 目标词表 %4 · 标签平滑 ε = %5</translation>
    </message>
    <message>
        <source>No batch yet: start training to see its masks.</source>
        <translation>还没有批次：开始训练后可看到它的掩码。</translation>
    </message>
    <message>
        <source>Label-smoothed target q (ε = %1)</source>
        <translation>标签平滑后的目标 q（ε = %1）</translation>
    </message>
    <message>
        <source>
first %1 of %2 ids shown</source>
        <translation>
显示了 %2 个 id 中的前 %1 个</translation>
    </message>
    <message>
        <source>Batch of %1 texts · length %2 · vocabulary %3 · label smoothing ε = %4 (no source: a decoder-only model)</source>
        <translation>批次含 %1 段文本 · 长度 %2 · 词表 %3 · 标签平滑 ε = %4（没有源序列：仅解码器模型）</translation>
    </message>
</context>
<context>
    <name>as::ui::ModelView</name>
    <message>
        <source>Input embedding</source>
        <translation>输入嵌入</translation>
    </message>
    <message>
        <source>Positional encoding (encoder)</source>
        <translation>位置编码（编码器）</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>Encoder: residual after self-attention</source>
        <translation>编码器：自注意力之后的残差连接</translation>
    </message>
    <message>
        <source>Encoder feed-forward</source>
        <translation>编码器前馈神经网络</translation>
    </message>
    <message>
        <source>Encoder: residual after feed-forward</source>
        <translation>编码器：前馈神经网络之后的残差连接</translation>
    </message>
    <message>
        <source>Encoder&apos;s final layer normalisation</source>
        <translation>编码器最后的层归一化</translation>
    </message>
    <message>
        <source>Output embedding</source>
        <translation>输出嵌入</translation>
    </message>
    <message>
        <source>Positional encoding (decoder)</source>
        <translation>位置编码（解码器）</translation>
    </message>
    <message>
        <source>Decoder masked self-attention</source>
        <translation>解码器带掩码的自注意力</translation>
    </message>
    <message>
        <source>Decoder: residual after self-attention</source>
        <translation>解码器：自注意力之后的残差连接</translation>
    </message>
    <message>
        <source>Cross-attention (encoder–decoder)</source>
        <translation>交叉注意力（编码器-解码器注意力）</translation>
    </message>
    <message>
        <source>Decoder: residual after cross-attention</source>
        <translation>解码器：交叉注意力之后的残差连接</translation>
    </message>
    <message>
        <source>Decoder feed-forward</source>
        <translation>解码器前馈神经网络</translation>
    </message>
    <message>
        <source>Decoder: residual after feed-forward</source>
        <translation>解码器：前馈神经网络之后的残差连接</translation>
    </message>
    <message>
        <source>Decoder&apos;s final layer normalisation</source>
        <translation>解码器最后的层归一化</translation>
    </message>
    <message>
        <source>Linear (generator)</source>
        <translation>线性层（生成器）</translation>
    </message>
    <message>
        <source>Softmax</source>
        <translation>softmax</translation>
    </message>
    <message>
        <source>masked: −∞ before the softmax, 0 after it</source>
        <translation>已掩码：softmax 之前为 −∞，之后为 0</translation>
    </message>
    <message>
        <source>%1
row %2 (%3), column %4 (%5)
%6</source>
        <translation>%1
第 %2 行（%3），第 %4 列（%5）
%6</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Layer (1 = nearest the embeddings)</source>
        <translation>层（1 = 最靠近嵌入的一层）</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>头：</translation>
    </message>
    <message>
        <source>Which head&apos;s Q, K, V, scores and weights to show</source>
        <translation>显示哪个头的查询、键、值、注意力分数和注意力权重</translation>
    </message>
    <message>
        <source>Show in the Attention view</source>
        <translation>在注意力视图中显示</translation>
    </message>
    <message>
        <source>Every head of this layer in the Attention view, this one enlarged</source>
        <translation>在注意力视图中显示这一层的所有头，并放大这个头</translation>
    </message>
    <message>
        <source>%1 · layer %2</source>
        <translation>%1 · 第 %2 层</translation>
    </message>
    <message>
        <source>The numbers appear here once there is a probe sentence (the Attention tab&apos;s probe bar) and a model: training, or a model file opened.</source>
        <translation>有了探针句子（注意力标签页的探针栏）和模型（正在训练，或已打开模型文件）之后，数值会显示在这里。</translation>
    </message>
    <message>
        <source>embedding × √d_model</source>
        <translation>嵌入 × √d_model</translation>
    </message>
    <message>
        <source>Embedding(x) · √d_model = Embedding(x) · √%1 : %2×%3</source>
        <translation>Embedding(x) · √d_model = Embedding(x) · √%1 : %2×%3</translation>
    </message>
    <message>
        <source>positional encoding (input − embedding)</source>
        <translation>位置编码（输入 − 嵌入）</translation>
    </message>
    <message>
        <source>input = embedding + PE</source>
        <translation>输入 = 嵌入 + 位置编码</translation>
    </message>
    <message>
        <source>x · √d_model + PE(pos, 2i) = sin(pos / 10000^(2i/%1)), PE(pos, 2i+1) = cos(…) : %2×%3</source>
        <translation>x · √d_model + PE(pos, 2i) = sin(pos / 10000^(2i/%1))，PE(pos, 2i+1) = cos(…) : %2×%3</translation>
    </message>
    <message>
        <source>Q (queries)</source>
        <translation>Q（查询）</translation>
    </message>
    <message>
        <source>K (keys)</source>
        <translation>K（键）</translation>
    </message>
    <message>
        <source>V (values)</source>
        <translation>V（值）</translation>
    </message>
    <message>
        <source>QKᵀ/√d_k, masked</source>
        <translation>QKᵀ/√d_k，加掩码</translation>
    </message>
    <message>
        <source>softmax: attention weights</source>
        <translation>softmax：注意力权重</translation>
    </message>
    <message>
        <source> + causal mask</source>
        <translation> + 因果掩码</translation>
    </message>
    <message>
        <source>head %1 = softmax(Q Kᵀ / √%2%3) · V : (%4×%2)(%2×%5) → %4×%5 · %5×%2 → %4×%2;  Concat(head 1 … head %6) · W_O : %4×%7</source>
        <translation>头 %1 = softmax(Q Kᵀ / √%2%3) · V : (%4×%2)(%2×%5) → %4×%5 · %5×%2 → %4×%2；  Concat(头 1 … 头 %6) · W_O : %4×%7</translation>
    </message>
    <message>
        <source>  (queries from the decoder, keys and values from the encoder&apos;s output)</source>
        <translation>  （查询来自解码器，键和值来自编码器的输出）</translation>
    </message>
    <message>
        <source>  (Q, K, V are projections of LayerNorm(x): pre-norm)</source>
        <translation>  （Q、K、V 是 LayerNorm(x) 的投影：前置归一化）</translation>
    </message>
    <message>
        <source>sublayer output (after W_O)</source>
        <translation>子层输出（W_O 之后）</translation>
    </message>
    <message>
        <source>x + Sublayer(LayerNorm(x))</source>
        <translation>x + Sublayer(LayerNorm(x))</translation>
    </message>
    <message>
        <source>LayerNorm(x + Sublayer(x))</source>
        <translation>LayerNorm(x + Sublayer(x))</translation>
    </message>
    <message>
        <source>x + Sublayer(LayerNorm(x)) : %1×%2</source>
        <translation>x + Sublayer(LayerNorm(x)) : %1×%2</translation>
    </message>
    <message>
        <source>LayerNorm(x + Sublayer(x)) : %1×%2</source>
        <translation>LayerNorm(x + Sublayer(x)) : %1×%2</translation>
    </message>
    <message>
        <source>· W₂ + b₂</source>
        <translation>· W₂ + b₂</translation>
    </message>
    <message>
        <source>FFN(x) = max(0, x W₁ + b₁) W₂ + b₂ : %1×%2 → %1×%3 → %1×%2</source>
        <translation>FFN(x) = max(0, x W₁ + b₁) W₂ + b₂ : %1×%2 → %1×%3 → %1×%2</translation>
    </message>
    <message>
        <source>the layer&apos;s output</source>
        <translation>这一层的输出</translation>
    </message>
    <message>
        <source>x + FFN(LayerNorm(x)) : %1×%2</source>
        <translation>x + FFN(LayerNorm(x)) : %1×%2</translation>
    </message>
    <message>
        <source>LayerNorm(x + FFN(x)) : %1×%2</source>
        <translation>LayerNorm(x + FFN(x)) : %1×%2</translation>
    </message>
    <message>
        <source>the memory the decoder reads</source>
        <translation>解码器读取的记忆（编码器输出）</translation>
    </message>
    <message>
        <source>the decoder&apos;s output</source>
        <translation>解码器的输出</translation>
    </message>
    <message>
        <source>LayerNorm(x) = γ ⊙ (x − mean) / √(var + ε) + β : %1×%2</source>
        <translation>LayerNorm(x) = γ ⊙ (x − 均值) / √(方差 + ε) + β : %1×%2</translation>
    </message>
    <message numerus="yes">
        <source>logits (%n of the vocabulary&apos;s columns)</source>
        <translation>
            <numerusform>logits（词表中的 %n 列）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>probabilities (%n of the vocabulary&apos;s columns)</source>
        <translation>
            <numerusform>概率（词表中的 %n 列）</numerusform>
        </translation>
    </message>
    <message>
        <source>x W_gen + b : %1×%2 → %1×%3 (one score per word of the vocabulary)</source>
        <translation>x W_gen + b : %1×%2 → %1×%3（词表中每个词一个分数）</translation>
    </message>
    <message>
        <source>softmax(logits) : %1×%2; the most probable word at each position: %3</source>
        <translation>softmax(logits) : %1×%2；每个位置上概率最大的词：%3</translation>
    </message>
    <message>
        <source>weights·V: this head&apos;s context</source>
        <translation>权重·V：这个头的上下文</translation>
    </message>
    <message>
        <source>Replay the traces recorded during training (while this tab was shown); at the right end the view follows the latest step</source>
        <translation>回放训练期间（本标签页显示时）记录的前向计算；滑到最右端时视图跟随最新的步</translation>
    </message>
    <message>
        <source>no steps traced</source>
        <translation>尚未记录任何步</translation>
    </message>
    <message>
        <source>x + P[pos], P a learned table of %1 positions (GPT-2&apos;s) : %2×%3</source>
        <translation>x + P[pos]，P 为可学习的 %1 个位置的表（GPT-2 的）：%2×%3</translation>
    </message>
    <message>
        <source>GELU</source>
        <translation>GELU</translation>
    </message>
    <message>
        <source>SiLU</source>
        <translation>SiLU</translation>
    </message>
    <message>
        <source>ReLU</source>
        <translation>ReLU</translation>
    </message>
    <message>
        <source>%1(x W₁ + b₁)</source>
        <translation>%1(x W₁ + b₁)</translation>
    </message>
    <message>
        <source>FFN(x) = %4(x W₁ + b₁) W₂ + b₂ : %1×%2 → %1×%3 → %1×%2</source>
        <translation>FFN(x) = %4(x W₁ + b₁) W₂ + b₂ : %1×%2 → %1×%3 → %1×%2</translation>
    </message>
</context>
<context>
    <name>as::ui::NeuronPanel</name>
    <message>
        <source>encoder self</source>
        <translation>编码器自注意力</translation>
    </message>
    <message>
        <source>decoder self</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>decoder cross</source>
        <translation>解码器交叉注意力</translation>
    </message>
    <message>
        <source>layer </source>
        <translation>层 </translation>
    </message>
    <message>
        <source>head </source>
        <translation>头 </translation>
    </message>
    <message>
        <source>The query token whose attention is taken apart</source>
        <translation>要拆解其注意力的查询词元</translation>
    </message>
    <message>
        <source>&lt;b&gt;Neuron view&lt;/b&gt;</source>
        <translation>&lt;b&gt;神经元视图&lt;/b&gt;</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Choose a kind, layer, head and query token
of the probe sentence</source>
        <translation>选择注意力类型、层、头和
探针句中的查询词元</translation>
    </message>
    <message>
        <source>q ⊙ k: each key times the query,
element by element (row sums = q·k)</source>
        <translation>q ⊙ k：每个键与查询
逐元素相乘（行之和 = q·k）</translation>
    </message>
    <message>
        <source>dimension of the head</source>
        <translation>头的维度</translation>
    </message>
    <message>
        <source>key %1, dimension %2: q %3 × k %4 = %5</source>
        <translation>键 %1，维度 %2：q %3 × k %4 = %5</translation>
    </message>
    <message>
        <source>Scores q·k/√d_k (bars)
and softmax (line, right axis)</source>
        <translation>注意力分数 q·k/√d_k（柱）
和 softmax（线，右轴）</translation>
    </message>
    <message>
        <source>score</source>
        <translation>注意力分数</translation>
    </message>
    <message>
        <source>softmax</source>
        <translation>softmax</translation>
    </message>
    <message>
        <source>token·token</source>
        <translation>词元·词元</translation>
    </message>
    <message>
        <source>token·position</source>
        <translation>词元·位置</translation>
    </message>
    <message>
        <source>position·token</source>
        <translation>位置·词元</translation>
    </message>
    <message>
        <source>position·position</source>
        <translation>位置·位置</translation>
    </message>
    <message>
        <source>bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>head %1 %2 %</source>
        <translation>头 %1 %2 %</translation>
    </message>
    <message>
        <source>Positional share of the scores (first encoder layer): %1</source>
        <translation>注意力分数中位置的占比（第一个编码器层）：%1</translation>
    </message>
</context>
<context>
    <name>as::ui::PeView</name>
    <message>
        <source>Number of positions drawn (rows of the heatmap)</source>
        <translation>绘制的位置数（热力图的行数）</translation>
    </message>
    <message>
        <source>Model width; follows the training configuration</source>
        <translation>模型宽度；跟随训练配置</translation>
    </message>
    <message>
        <source>Up to four dimensions drawn against position, e.g. 4, 5, 6, 7</source>
        <translation>对照位置绘制的维度，最多四个，例如 4, 5, 6, 7</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置数</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
    </message>
    <message>
        <source>Dimensions</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>PE value</source>
        <translation>PE 值</translation>
    </message>
    <message>
        <source>Positional encoding PE[position, dimension]</source>
        <translation>位置编码 PE[位置, 维度]</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Chosen dimensions against position</source>
        <translation>所选维度随位置的变化</translation>
    </message>
    <message>
        <source>dot product</source>
        <translation>点积</translation>
    </message>
    <message>
        <source>Similarity PE·PEᵀ between positions</source>
        <translation>位置之间的相似度 PE·PEᵀ</translation>
    </message>
    <message>
        <source>position %1, dimension %2: %3</source>
        <translation>位置 %1，维度 %2：%3</translation>
    </message>
    <message>
        <source>positions %1 and %2: PE·PE = %3</source>
        <translation>位置 %1 与 %2：PE·PE = %3</translation>
    </message>
    <message>
        <source>dim %1</source>
        <translation>维度 %1</translation>
    </message>
    <message>
        <source>sin, cos interleaved (Annotated Transformer)</source>
        <translation>sin、cos 交错（Annotated Transformer）</translation>
    </message>
    <message>
        <source>sines, then cosines (Marian)</source>
        <translation>先正弦、后余弦（Marian）</translation>
    </message>
    <message>
        <source>The same numbers in two orders of columns: sin and cos of each frequency side by side, as The Annotated Transformer writes them, or every sine first and every cosine after, as Marian&apos;s OPUS-MT translators lay them out; a model opened with that layout shows it</source>
        <translation>同样的数值，两种列顺序：每个频率的 sin 与 cos 并排，这是 The Annotated Transformer 的写法；或者所有正弦在前、所有余弦在后，这是 Marian 的 OPUS-MT 翻译模型的排法；以这种排法打开的模型会显示它</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>排列</translation>
    </message>
</context>
<context>
    <name>as::ui::ReplayBar</name>
    <message>
        <source>Replay:</source>
        <translation>回放：</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>Follow the latest recorded step</source>
        <translation>跟随最新记录的步</translation>
    </message>
    <message>
        <source>no steps recorded</source>
        <translation>尚未记录任何步</translation>
    </message>
    <message>
        <source>step %1 · live</source>
        <translation>第 %1 步 · 实时</translation>
    </message>
    <message>
        <source>step %1 · replay %2/%3</source>
        <translation>第 %1 步 · 回放 %2/%3</translation>
    </message>
</context>
<context>
    <name>as::ui::SamplesView</name>
    <message>
        <source>source</source>
        <translation>源句</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>参考译文</translation>
    </message>
    <message>
        <source>translation</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>previous translation</source>
        <translation>上一次翻译</translation>
    </message>
    <message>
        <source>new words</source>
        <translation>新出现的词</translation>
    </message>
    <message>
        <source>The session&apos;s example sentences are translated at each validation and shown here.</source>
        <translation>每次验证时，会话的样例句子会被翻译并显示在这里。</translation>
    </message>
    <message>
        <source>Greedy translations at step %1, next to those at step %2: %3 of %4 changed (highlighted).</source>
        <translation>第 %1 步的贪心解码翻译，与第 %2 步的对照：%4 句中有 %3 句改变（已高亮）。</translation>
    </message>
    <message>
        <source>Greedy translations at step %1.</source>
        <translation>第 %1 步的贪心解码翻译。</translation>
    </message>
    <message>
        <source>prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>continuation</source>
        <translation>续写</translation>
    </message>
    <message>
        <source>previous continuation</source>
        <translation>上一次的续写</translation>
    </message>
    <message>
        <source>Greedy continuations at step %1, next to those at step %2: %3 of %4 changed (highlighted).</source>
        <translation>第 %1 步的贪心续写，与第 %2 步的并列：%4 条中有 %3 条变了（高亮）。</translation>
    </message>
    <message>
        <source>Greedy continuations at step %1.</source>
        <translation>第 %1 步的贪心续写。</translation>
    </message>
</context>
<context>
    <name>as::ui::SamplingControls</name>
    <message>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Divides the logits before the softmax: below 1 sharper, above 1 flatter; 0 is greedy</source>
        <translation>softmax 之前用它除 logits：小于 1 更尖锐，大于 1 更平坦；0 即贪心解码</translation>
    </message>
    <message>
        <source>top-k</source>
        <translation>top-k</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Draw only among the k likeliest tokens (all: no cut)</source>
        <translation>只在概率最高的 k 个词元中抽取（全部：不截断）</translation>
    </message>
    <message>
        <source>top-p</source>
        <translation>top-p</translation>
    </message>
    <message>
        <source>Nucleus: draw only among the fewest likeliest tokens whose probabilities reach p (1: no cut)</source>
        <translation>核采样：只在概率之和达到 p 的最少几个最可能词元中抽取（1：不截断）</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>The same seed draws the same output from the same weights</source>
        <translation>同样的权重和同样的种子抽出同样的输出</translation>
    </message>
</context>
<context>
    <name>as::ui::TokensView</name>
    <message>
        <source>Side:</source>
        <translation>端：</translation>
    </message>
    <message>
        <source>source</source>
        <translation>源端</translation>
    </message>
    <message>
        <source>target</source>
        <translation>目标端</translation>
    </message>
    <message>
        <source>Which side of the training split the tokenisers are trained on and cut</source>
        <translation>在训练集的哪一端训练分词器并切分句子</translation>
    </message>
    <message>
        <source>Typed:</source>
        <translation>输入：</translation>
    </message>
    <message>
        <source>type text to see every tokeniser cut it…</source>
        <translation>输入文字，看每个分词器如何切分…</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Train every tokeniser on this side of the training split again and count its tokens</source>
        <translation>在训练集的这一端重新训练每个分词器，并统计它切出的词元</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Compare with BPE (A/B)</source>
        <translation>与 BPE 对比（A/B）</translation>
    </message>
    <message>
        <source>Start an A/B session: B is this session with bpe:8000 on the side chosen, trained beside it on the same pairs</source>
        <translation>开始 A/B 会话：B 即本会话在所选一端改用 bpe:8000，在相同的句对上与它并行训练</translation>
    </message>
    <message>
        <source>Tokeniser</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>Tokens / sentence</source>
        <translation>词元数/句</translation>
    </message>
    <message>
        <source>&lt;unk&gt;</source>
        <translation>&lt;unk&gt;</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>Typed</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Piece</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Vocabulary of:</source>
        <translation>词表：</translation>
    </message>
    <message>
        <source>BPE merges, in order:</source>
        <translation>BPE 合并（按顺序）：</translation>
    </message>
    <message>
        <source>Show this view to cut the corpus with every tokeniser.</source>
        <translation>显示此视图，即用每个分词器切分语料。</translation>
    </message>
    <message>
        <source>%1, %2 side of the training split: %3 sentences. The probe: %4</source>
        <translation>%1，训练集%2：%3 个句子。探针：%4</translation>
    </message>
    <message>
        <source>not trained: %1</source>
        <translation>未能训练：%1</translation>
    </message>
    <message>
        <source>tokens per sentence (bins of %1)</source>
        <translation>每句词元数（每组 %1）</translation>
    </message>
    <message>
        <source>tokens per sentence</source>
        <translation>每句词元数</translation>
    </message>
    <message>
        <source>sentences</source>
        <translation>句子数</translation>
    </message>
    <message>
        <source>%1. %2 + %3 → %4</source>
        <translation>%1. %2 + %3 → %4</translation>
    </message>
    <message>
        <source>BPE merges, in order (%1):</source>
        <translation>BPE 合并，按顺序（%1 个）：</translation>
    </message>
    <message>
        <source>BPE merges, in order: none for %1</source>
        <translation>BPE 合并（按顺序）：%1 没有合并</translation>
    </message>
    <message>
        <source>A language model&apos;s text is this side of the corpus&apos;s training split</source>
        <translation>语言模型的文本就是语料训练集的这一侧</translation>
    </message>
    <message>
        <source>%1: the %2 side of zh-en&apos;s training split, %3 sentences. The prompt: %4</source>
        <translation>%1：zh-en 训练集的%2，%3 个句子。提示：%4</translation>
    </message>
</context>
<context>
    <name>as::ui::TranslateView</name>
    <message>
        <source>Type a sentence in the source language, e.g. 我有一个好朋友</source>
        <translation>输入一个源语言句子，例如 我有一个好朋友</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation>束搜索</translation>
    </message>
    <message>
        <source>Beam width k (k = 1 gives the greedy output)</source>
        <translation>束宽 k（k = 1 即贪心解码的输出）</translation>
    </message>
    <message>
        <source>How many hypotheses of the beam to list (at most k)</source>
        <translation>列出束中多少个假设（最多 k 个）</translation>
    </message>
    <message>
        <source>Decoding:</source>
        <translation>解码：</translation>
    </message>
    <message>
        <source>beam width k:</source>
        <translation>束宽 k：</translation>
    </message>
    <message>
        <source>n-best:</source>
        <translation>n-best：</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>translation</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>log p</source>
        <translation>log p</translation>
    </message>
    <message>
        <source>ends</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>score = log p / ((5 + length) / 6)^0.6; ends: the hypothesis ended with &lt;/s&gt;</source>
        <translation>得分 = log p / ((5 + 长度) / 6)^0.6；结束：该假设以 &lt;/s&gt; 结束</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>The five likeliest next tokens at every output step (teacher-forced on the best output); the emitted token is in bold</source>
        <translation>每个输出步上最可能的五个下一个词元（在最佳输出上使用教师强制）；实际输出的词元为粗体</translation>
    </message>
    <message>
        <source>Decoder layer of the cross-attention</source>
        <translation>交叉注意力所在的解码器层</translation>
    </message>
    <message>
        <source>One head, or the mean over the heads</source>
        <translation>一个头，或各头平均</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>attention (last layer, mean)</source>
        <translation>注意力（最后一层，平均）</translation>
    </message>
    <message>
        <source>rollout</source>
        <translation>rollout（注意力展开）</translation>
    </message>
    <message>
        <source>gradient × input</source>
        <translation>梯度 × 输入</translation>
    </message>
    <message>
        <source>integrated gradients</source>
        <translation>积分梯度</translation>
    </message>
    <message>
        <source>What each output token rests on. Cross-attention: the weights of one layer and head. The others explain log p(output token): the last layer&apos;s mean cross-attention; rollout (Abnar &amp; Zuidema 2020) through the encoder&apos;s self-attention; gradient × input and integrated gradients (32 steps) over the source embeddings</source>
        <translation>每个输出词元依据的是什么。交叉注意力：某一层某一个头的权重。其余方法解释 log p(输出词元)：最后一层的平均交叉注意力；rollout（Abnar &amp; Zuidema 2020）经过编码器自注意力；梯度 × 输入和积分梯度（32 步）作用于源嵌入</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>Translate a sentence
to see its cross-attention</source>
        <translation>翻译一个句子
以查看其交叉注意力</translation>
    </message>
    <message>
        <source>source token (key)</source>
        <translation>源词元（键）</translation>
    </message>
    <message>
        <source>output token (query)</source>
        <translation>输出词元（查询）</translation>
    </message>
    <message>
        <source> (unknown: read as &lt;unk&gt;)</source>
        <translation>（未知：读作 &lt;unk&gt;）</translation>
    </message>
    <message>
        <source>output %1 (step %2)</source>
        <translation>输出 %1（第 %2 步）</translation>
    </message>
    <message>
        <source>source %1: %2%3</source>
        <translation>源 %1：%2%3</translation>
    </message>
    <message>
        <source>Explained by</source>
        <translation>解释方法</translation>
    </message>
    <message>
        <source>Cross-attention of the best output:</source>
        <translation>最佳输出的交叉注意力：</translation>
    </message>
    <message>
        <source>n-best list</source>
        <translation>n-best 列表</translation>
    </message>
    <message>
        <source>Top-5 next tokens per step</source>
        <translation>每步前 5 个下一个词元</translation>
    </message>
    <message>
        <source>Type a sentence and press Enter. Translation uses a copy of the current weights, so training goes on meanwhile.</source>
        <translation>输入一个句子并按回车。翻译使用当前权重的副本，因此训练会同时继续。</translation>
    </message>
    <message>
        <source>Nothing to translate: type a sentence first.</source>
        <translation>没有可翻译的内容：请先输入一个句子。</translation>
    </message>
    <message>
        <source>The input was longer than %1 characters; only the first %1 are translated.</source>
        <translation>输入超过 %1 个字符；只翻译前 %1 个。</translation>
    </message>
    <message>
        <source>No model yet: start training or open a model, then translate.</source>
        <translation>还没有模型：请开始训练或打开一个模型，然后再翻译。</translation>
    </message>
    <message>
        <source>Translation failed: no hypothesis</source>
        <translation>翻译失败：没有假设</translation>
    </message>
    <message>
        <source>(empty output)</source>
        <translation>（空输出）</translation>
    </message>
    <message>
        <source>%1 with the weights of step %2 in %3 ms%4.</source>
        <translation>%1，使用第 %2 步的权重，用时 %3 毫秒%4。</translation>
    </message>
    <message>
        <source>Beam search (k = %1)</source>
        <translation>束搜索（k = %1）</translation>
    </message>
    <message>
        <source>Greedy decoding</source>
        <translation>贪心解码</translation>
    </message>
    <message>
        <source>; the output reached the length limit without &lt;/s&gt;</source>
        <translation>；输出达到长度上限仍没有 &lt;/s&gt;</translation>
    </message>
    <message>
        <source>&lt;/s&gt;</source>
        <translation>&lt;/s&gt;</translation>
    </message>
    <message>
        <source>max length</source>
        <translation>最大长度</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>mean of heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Source tokens:</source>
        <translation>源词元：</translation>
    </message>
    <message>
        <source>Computing the attributions…</source>
        <translation>正在计算归因…</translation>
    </message>
    <message>
        <source>contribution to log p</source>
        <translation>对 log p 的贡献</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Spearman with attention: %1 overall; per output token: %2.</source>
        <translation>与注意力的 Spearman 相关：总体 %1；按输出词元：%2。</translation>
    </message>
    <message>
        <source> Completeness: |Σ IG − (f(e) − f(0))| at most %1 over the %2 output tokens.</source>
        <translation> 完整性：在 %2 个输出词元上，|Σ IG − (f(e) − f(0))| 最多为 %1。</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>为什么是</translation>
    </message>
    <message>
        <source>and not</source>
        <translation>而不是</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>解释</translation>
    </message>
    <message>
        <source>A token of the best translation</source>
        <translation>最佳译文中的一个词元</translation>
    </message>
    <message>
        <source>Another token it could have been (the step&apos;s other likeliest, or type one)</source>
        <translation>它本来可能是的另一个词元（这一步其他最可能的词元，或自己输入）</translation>
    </message>
    <message>
        <source>Gradient × input and integrated gradients of log p(chosen) − log p(other), the same prefix, over the source tokens</source>
        <translation>在同样的前缀下，log p(选中) − log p(另一个) 对源词元的梯度 × 输入和积分梯度</translation>
    </message>
    <message>
        <source>source token</source>
        <translation>源词元</translation>
    </message>
    <message>
        <source>Choose a token of the translation and another it could have been</source>
        <translation>选择译文中的一个词元，以及它本来可能是的另一个词元</translation>
    </message>
    <message>
        <source>Why “%1” and not “%2” at position %3 · log p difference %4 · IG completeness %5</source>
        <translation>位置 %3 为什么是“%1”而不是“%2” · log p 之差 %4 · 积分梯度完整性 %5</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Beam tree</source>
        <translation>束搜索树</translation>
    </message>
    <message>
        <source>Beam search&apos;s hypotheses step by step: kept, finished and pruned</source>
        <translation>束搜索逐步的假设：保留、已结束和剪除</translation>
    </message>
    <message>
        <source>position %1: %2</source>
        <translation>位置 %1：%2</translation>
    </message>
    <message>
        <source>output %1 (step %2) → position %3: %4
weight %5</source>
        <translation>输出 %1（第 %2 步）→ 位置 %3：%4
权重 %5</translation>
    </message>
    <message>
        <source>Type the beginning of a text, e.g. I&apos;d like</source>
        <translation>输入一段文本的开头，例如 I&apos;d like</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>continuation</source>
        <translation>续写</translation>
    </message>
    <message>
        <source>earlier token (key)</source>
        <translation>之前的词元（键）</translation>
    </message>
    <message>
        <source>Self-attention behind each generated token:</source>
        <translation>每个生成词元背后的自注意力：</translation>
    </message>
    <message>
        <source>Self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>Sampled (temperature %1, top-k %2, top-p %3, seed %4)</source>
        <translation>采样（温度 %1，top-k %2，top-p %3，种子 %4）</translation>
    </message>
    <message numerus="yes">
        <source>%n input token(s) not in the vocabulary, read as &lt;unk&gt;: %1</source>
        <translation>
            <numerusform>%n 个输入词元不在词表中，按 &lt;unk&gt; 读入：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Prompt tokens:</source>
        <translation>提示词元：</translation>
    </message>
    <message>
        <source>prompt %1: %2%3</source>
        <translation>提示 %1：%2%3</translation>
    </message>
    <message>
        <source>output %1 (step %2) → prompt %3%4
score %5</source>
        <translation>输出 %1（第 %2 步）→ 提示 %3%4
得分 %5</translation>
    </message>
    <message>
        <source>self-attention</source>
        <translation>自注意力</translation>
    </message>
    <message>
        <source>What each generated token rests on in the prompt. Self-attention: the weights of one layer and head. The others explain log p(generated token): the last layer&apos;s mean self-attention to the prompt; rollout (Abnar &amp; Zuidema 2020) through every layer&apos;s self-attention; gradient × input and integrated gradients (32 steps) over the prompt&apos;s embeddings</source>
        <translation>每个生成的词元依据提示中的什么。自注意力：某一层某一个头的权重。其余方法解释 log p(生成的词元)：最后一层对提示的平均自注意力；rollout（Abnar &amp; Zuidema 2020）经过每一层的自注意力；梯度 × 输入和积分梯度（32 步）作用于提示的嵌入</translation>
    </message>
    <message>
        <source>A token of the continuation</source>
        <translation>续写中的一个词元</translation>
    </message>
    <message>
        <source>Gradient × input and integrated gradients of log p(chosen) − log p(other), the same prefix, over the prompt&apos;s tokens</source>
        <translation>在同样的前缀下，log p(选中) − log p(另一个) 对提示词元的梯度 × 输入和积分梯度</translation>
    </message>
    <message>
        <source>prompt token</source>
        <translation>提示词元</translation>
    </message>
    <message>
        <source>Choose a token of the continuation and another it could have been</source>
        <translation>选择续写中的一个词元，以及它本来可能是的另一个词元</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>并排对照</translation>
    </message>
    <message>
        <source>The same sentence translated by this model and by %1, their cross-attention beside each other</source>
        <translation>同一个句子由当前模型和 %1 分别翻译，两者的交叉注意力并排显示</translation>
    </message>
    <message>
        <source>Translating…</source>
        <translation>正在翻译…</translation>
    </message>
    <message>
        <source>Translate a sentence: both models translate it.</source>
        <translation>翻译一个句子：两个模型都会翻译它。</translation>
    </message>
    <message>
        <source>This model, step %1</source>
        <translation>当前模型，第 %1 步</translation>
    </message>
    <message>
        <source>This model</source>
        <translation>当前模型</translation>
    </message>
</context>
</TS>
