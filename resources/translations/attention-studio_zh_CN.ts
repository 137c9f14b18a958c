<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <source>encoder self</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decoder self</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cross</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export this plot as PNG or SVG, or its data as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export SVG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export SVG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV data (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ComparisonActions</name>
    <message>
        <source>Comparing with %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare with run…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw another run&apos;s loss, learning rate and validation beside this one&apos;s, from its checkpoint (up to %1 runs; Ctrl+Shift+C)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention Studio checkpoints (*.%1);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remove compared run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A/&amp;B session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train a second session B beside this one — other model or optimisation settings, the same data, order and seed — in alternation, both from step 0, every plot showing both (Ctrl+B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keep B as the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B becomes the session (paused, with its history) and A is dropped: to go on training, save or export it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop A/B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop B; A goes on alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A/B: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A/B needs a session that trains: apply a task or open a corpus first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A/B session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session B trains beside the current one (A) on the same data, in the same order, with the same seed: change what B should do differently. Both start again from step 0%1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — A&apos;s %1 steps so far are not kept (save them first if you want them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start A/B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B cannot be built: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B stopped at step %1: %2. A goes on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · B loss %1%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (stopped)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1 to compare…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove &amp;all</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::CorpusActions</name>
    <message>
        <source>Open &amp;corpus…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train on your own parallel corpus: a TSV file (source&lt;TAB&gt;target) or a manythings.org Anki file (Ctrl+Shift+O)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpora (*.tsv *.txt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>source&lt;TAB&gt;target per line, or an Anki file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional: else 2 % of the training pairs are held out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the other language into English</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>English into the other language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>manythings.org Anki files hold English&lt;TAB&gt;other&lt;TAB&gt;attribution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anki files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The corpus is trained with the corpus recipe (Settings shows and changes it); the current session is replaced.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the corpus was cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1 and building the vocabularies…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be continued: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where is the corpus?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was trained on %2, which is not there any more. Point to it to continue training; until then the model is shown as it was saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Locate…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where is %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The corpus of %1 is not at %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the corpus of %1 to continue its training…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not opened: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training of %1 cannot continue on %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>

%n line(s) or pair(s) left out: see the details.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Opened the corpus %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::FileActions</name>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue a saved session: model, optimiser, history (Ctrl+O)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import weights…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look inside a model trained elsewhere: a .safetensors weight file, e.g. from PyTorch (Ctrl+I)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export weights…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the model as a .safetensors weight file that PyTorch can read (Ctrl+E)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported the weights to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1 at step %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention Studio checkpoints (*.%1);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention Studio checkpoints (*.%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight files (*.safetensors);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not opened: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 does not say how many attention heads the model has (d_model = %2).
Heads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no vocabularies. Choose vocabulary files (one token per line, in id order, starting &lt;pad&gt; &lt;s&gt; &lt;/s&gt; &lt;unk&gt;)?

No: name the tokens tok4, tok5, … and type sentences as those names.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source vocabulary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target vocabulary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight files (*.safetensors)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore the autosaved session?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention Studio did not close normally last time. Its session was autosaved at %1. Restore it?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::HeadService</name>
    <message>
        <source>Copying the current weights…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No validation pairs to score heads on: train a task or a corpus (a model opened on its own has none).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pruning curve: %1 of %2 points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scoring heads: %1 of %2 passes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translating the validation pairs with the mutes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translating the validation pairs without them…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::HeadsController</name>
    <message>
        <source>Scored at step %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mutes evaluated at step %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pruning curve at step %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score heads first: the curve masks them least important first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::MainWindow</name>
    <message>
        <source>untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play / pause training (Space)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train one batch, then pause (→)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many steps &apos;Step N&apos; takes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train N batches, then pause (Shift+→)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start again from step 0 with the current settings (Ctrl+R)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> speed </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps per second: slow it down to watch single steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened %1 to look inside (step %2): type a sentence as the probe or in Translate; Apply in Settings starts a built-in task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened %1 at step %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1 / %2 · epoch %3 · loss %4 · lr %5 · %6 tok/s · elapsed %7 · remaining %8</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ProbeBar</name>
    <message>
        <source>The sentence pair whose attention is shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>or type a source sentence…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>…and its target (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Probe:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a source sentence for the probe first.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::RunComparer</name>
    <message>
        <source>%1 was not added: at most %2 runs can be compared at once. Remove one first (View &gt; Remove compared run).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is already compared.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not compared: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::SettingsPanel</name>
    <message>
        <source>toy: three Chinese→English pairs · copy, reverse, sort: random sequences · zh-en: the Tatoeba Chinese→English corpus that ships with the program (29k pairs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width of every token&apos;s vector (d_model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention heads; d_model must be a multiple of it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inner width of the feed-forward sublayer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encoder layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decoder layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dropout probability (training only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label smoothing ε</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pre-norm (Annotated Transformer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>post-norm (2017 paper)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Noam factor: scales the whole schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Noam warmup steps: the rate rises until here (none: the rate starts at its peak and only decays — warm-up 1 and 0 give the same rates)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient clipping: gradients are scaled down to this global L2 norm when above it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentences per batch (the toy task always uses its 3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token budget of a corpus batch: sentences of similar length are batched up to this many (padded) tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint averaging: the exported model is the mean of the weights at this many points, 5 % of the planned steps apart, the last at the end (1 = off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed of the initial weights, dropout and data (any whole number up to 19 digits, as the command line&apos;s --seed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps planned: the schedule plot and the time estimate use it; Play stops there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation every N steps (0 = never)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training time planned: Play also stops after this many minutes, and the status bar counts down to it (off: steps only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Model&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_ff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>encoder layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decoder layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dropout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>label smoothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Schedule&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>factor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warmup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Training&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens per batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clip gradient norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>planned steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>planned minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validate every</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>average weights of</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply and reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Build a fresh model with these settings (training restarts at step 0)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::TrainingWorker</name>
    <message>
        <source>The task cannot be built: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model cannot be built: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training is paused: %1. Try a smaller learning-rate factor, a longer warmup or gradient clipping, then Reset.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A/B needs a session that trains (a task or a corpus).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not opened: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no model to save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The weights were not exported: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::TranslationService</name>
    <message>
        <source>Copying the current weights…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model yet: start training or open a model, then translate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the previous translation to finish…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translating with the weights of step %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ViewSet</name>
    <message>
        <source>&amp;Loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning &amp;rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Positional encoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Translate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sa&amp;mples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Masks and smoothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head d&amp;ynamics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>H&amp;ealth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Em&amp;beddings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::AttentionView</name>
    <message>
        <source>Encoder self-attention (source × source)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decoder self-attention (target × target)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cross-attention (target × source)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which attention to show: queries are rows, keys are columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer (1 = nearest the embeddings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay the attention recorded during training; at the right end the view follows the latest step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the latest recorded step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean row entropy (nats)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entropy per head (dashed: uniform over the keys)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1: H = %2 nats (uniform: %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export entropies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No attention recorded yet.
Start training: the attention of the probe sentence appears here at every snapshot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no steps recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1 · live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1 · replay %2/%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Probe at step %1 — source: %2   target input: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1 · H=%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean of heads · H=%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean of %1 heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 · layer %3
entropy H = %4 nats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean of heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
query %2 (%3) → key %4 (%5)
weight %6</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::EmbeddingView</name>
    <message>
        <source>Source embedding: the encoder&apos;s input vector of each source token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target embedding: the decoder&apos;s input vector of each target token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generator: the output row of each target token (its logit is the row · the decoder&apos;s state + bias). Not tied to the target embedding: a parameter of its own (core/SPEC.md §2.6).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>source embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>generator (output rows)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which table of token vectors to project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding space: computed while this tab is shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its nearest neighbours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the token clicked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (id %2)
PC1 %3 · PC2 %4
click for its nearest neighbours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a token to list its 10 nearest neighbours by cosine similarity.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cosine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a neighbour to select it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC1 (%1 of the variance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC2 (%1 of the variance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the %1 most frequent of %2 tokens shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at step %2 · %3 · principal components of all %4 rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nearest to “%1” (id %2) in the %3, by cosine similarity, at step %4</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::HeadDynamicsView</name>
    <message>
        <source>entropy (nats)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>diagonal ±1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each a mean over the probe&apos;s query positions (eval/attention_stats.h):
entropy: −Σ a ln a of a query&apos;s attention (uniform over n keys: ln n)
confidence: its largest weight (Voita et al. 2019)
diagonal ±1: its mass on the keys within ±1 of t·(S−1)/(T−1), the diagonal with the
source length scaled to the target length (cross-attention: a monotonic alignment;
self-attention: the previous, same and next token)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train to see the heads form: the probe&apos;s attention is recorded as training goes, one column per record.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step (one column per record)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head \ record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 records, steps %2 – %3 · probe: %4 → %5 · click a cell to see that head at that step in Attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · layer %2 · head %3
step %4 (record %5 of %6)
entropy %7 nats · confidence %8 · diagonal ±1 %9
click: this head at this step in Attention</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::HeadsView</name>
    <message>
        <source>Encoder self-attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decoder cross-attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>importance |∂L/∂ξ|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ΔNLL when masked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>confidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>entropy (nats)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>importance: mean over validation pairs of |∂L/∂ξ_h| (Michel et al. 2019) · ΔNLL: the mean token NLL with the head alone masked, minus without · confidence: mean largest attention weight (Voita et al. 2019) · entropy: mean −Σ a log a of a query&apos;s attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score every head on the validation pairs with the current weights, in the background (Ctrl+H)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pruning curve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation BLEU and NLL with 0, 1, 2, … heads masked, least important first (Michel et al. 2019, Fig. 3), in the background</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unmute all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Score heads to colour the grids; click a head to mute it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
importance %1 · ΔNLL %2
confidence %3 · entropy %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
muted: click to unmute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
click to mute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pruning: heads masked in increasing order of importance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>heads masked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation BLEU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation NLL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NLL (right axis)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 heads masked: BLEU %2, NLL %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1, %2 validation pairs, no head muted: NLL %3 · BLEU %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1, %2 validation pairs, %3 head(s) muted: NLL %4 (%5 against none) · BLEU %6 (%7)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::HealthView</name>
    <message>
        <source>Tensors in forward order. Select some (Ctrl/Shift+click) for the line plots; the current one&apos;s histograms are shown below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log10 ‖Δw‖/‖w‖</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update ratio per tensor and step · white: the 1e-3 rule of thumb · blue: slower · red: faster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train a few steps to see each tensor&apos;s update ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first non-finite gradient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
step %2 · update ratio %3 · gradient norm %4 · weight norm %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update ratio ‖Δw‖/‖w‖ (band: 1e-4 … 1e-2 around 1e-3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient L2 norm (before clipping)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log10 |x|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log10 share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chosen tensor&apos;s histograms, at intervals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensors (forward order)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first non-finite gradient: %1 at step %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1: the loss is not finite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · step %2  </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 · histogram per step</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::LossView</name>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation token accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training loss, smoothed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation accuracy (right axis)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation BLEU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation BLEU (outer right axis)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>by wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>follow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the whole curve in view as it grows (off after a zoom or pan)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothing of the training loss (exponential moving average, debiased)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all the data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>smoothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1 · %2 s
loss %3 · smoothed %4 · lr %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
validation (step %1): loss %2 · accuracy %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · BLEU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training time (s)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::LrView</name>
    <message>
        <source>Learning rate (Noam schedule)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Annotated Transformer %1 : %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rate applied in a step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare with The Annotated Transformer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overlay the three curves of The Annotated Transformer&apos;s figure (factor 1): d_model / warmup 512 / 4000, 512 / 8000 and 256 / 4000, over 20,000 steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rates on a logarithmic axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_model %1, factor %2, warmup %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
step %2
rate %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::MasksView</name>
    <message>
        <source>Sentence of the batch whose decoder mask and targets are shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 pad</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source padding mask (src ≠ &lt;pad&gt;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>source position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 masked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decoder self-attention mask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target probability q</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label-smoothed target q</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vocabulary id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target position: id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sentence %1, source position %2 (%3): %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query %1 (%2), key %3 (%4): %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target position %1 (%2), id %3: q = %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch of %1 sentences · source length %2 · target length %3 · target vocabulary %4 · label smoothing ε = %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No batch yet: start training to see its masks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label-smoothed target q (ε = %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
first %1 of %2 ids shown</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::NeuronPanel</name>
    <message>
        <source>encoder self</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decoder self</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decoder cross</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The query token whose attention is taken apart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Neuron view&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a kind, layer, head and query token
of the probe sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q ⊙ k: each key&apos;s element-wise product with the query (row sums = q·k)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dimension of the head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key %1, dimension %2: q %3 × k %4 = %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores q·k/√d_k (bars) and softmax (line, right axis)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>softmax</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token·token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token·position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position·token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position·position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1 %2 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positional share of the scores (first encoder layer): %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::PeView</name>
    <message>
        <source>Number of positions drawn (rows of the heatmap)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model width; follows the training configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up to four dimensions drawn against position, e.g. 4, 5, 6, 7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d_model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dimensions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PE value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Positional encoding PE[position, dimension]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dimension</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chosen dimensions against position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dot product</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Similarity PE·PEᵀ between positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position %1, dimension %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>positions %1 and %2: PE·PE = %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dim %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::SamplesView</name>
    <message>
        <source>source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>translation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>previous translation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s example sentences are translated at each validation and shown here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Greedy translations at step %1, next to those at step %2: %3 of %4 changed (highlighted).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Greedy translations at step %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>as::ui::TranslateView</name>
    <message>
        <source>Type a sentence in the source language, e.g. 我有一个好朋友</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Greedy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Beam search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Beam width k (k = 1 gives the greedy output)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many hypotheses of the beam to list (at most k)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decoding:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>beam width k:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n-best:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>translation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score = log p / ((5 + length) / 6)^0.6; ends: the hypothesis ended with &lt;/s&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>next token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The five likeliest next tokens at every output step (teacher-forced on the best output); the emitted token is in bold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decoder layer of the cross-attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One head, or the mean over the heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention (last layer, mean)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rollout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gradient × input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>integrated gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What each output token rests on. Cross-attention: the weights of one layer and head. The others explain log p(output token): the last layer&apos;s mean cross-attention; rollout (Abnar &amp; Zuidema 2020) through the encoder&apos;s self-attention; gradient × input and integrated gradients (32 steps) over the source embeddings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translate a sentence
to see its cross-attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>source token (key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output token (query)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (unknown: read as &lt;unk&gt;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output %1 (step %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>source %1: %2%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output %1 (step %2) → source %3%4
weight %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Explained by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cross-attention of the best output:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n-best list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-5 next tokens per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a sentence and press Enter. Translation uses a copy of the current weights, so training goes on meanwhile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to translate: type a sentence first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The input was longer than %1 characters; only the first %1 are translated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model yet: start training or open a model, then translate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Translation failed: no hypothesis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(empty output)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 with the weights of step %2 in %3 ms%4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Beam search (k = %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Greedy decoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; the output reached the length limit without &lt;/s&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n source token(s) not in the vocabulary, read as &lt;unk&gt;: %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;/s&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean of heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>head %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing the attributions…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contribution to log p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spearman with attention: %1 overall; per output token: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Completeness: |Σ IG − (f(e) − f(0))| at most %1 over the %2 output tokens.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
