#include "ui/report/validitynotes.h"

#include "ui/report/sentenceforms.h"

namespace Throughline {

namespace {

constexpr const char *kContext = "Throughline::ValidityNotes";

// The sentence forms, written by core/metrics/pointanalysis.cpp, core/engine/replicaanalysis.cpp,
// core/metrics/pointaggregate.cpp, core/run/pointfinish.cpp, core/run/pointtiming.cpp and
// core/engine/tokenizerpromptsource.cpp; a variant with an optional part is listed once with and once
// without. A slow replica's reason is itself a note.
const SentenceForm kForms[] = {
    {R"(telemetry: (\d+) of (\d+) scrapes failed \(last: (.*)\))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "telemetry: %1 of %2 scrapes failed (last: %3)")},
    {R"(telemetry: (\d+) of (\d+) scrapes failed)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "telemetry: %1 of %2 scrapes failed")},
    {R"(stalls: (\d+) of (\d+) streams received nothing for longer than (\S+) ms \(longest (\S+) ms, request (\d+)\))",
     QT_TRANSLATE_NOOP(
         "Throughline::ValidityNotes",
         "stalls: %1 of %2 streams received nothing for longer than %3 ms (longest %4 ms, request "
         "%5)")},
    {R"(stalls: (\d+) of (\d+) streams received nothing for longer than (\S+) ms \(longest (\S+) ms\))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "stalls: %1 of %2 streams received nothing for longer than %3 ms (longest %4 ms)")},
    {R"(replica (\S+) much slower than the others: (.*))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "replica %1 much slower than the others: %2"),
     captureBit(2)},
    {R"((\S+ p50) (\S+) ms is (\S+)× the other replicas' median (\S+) ms)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "%1 %2 ms is %3× the other replicas' median %4 ms")},
    {R"(output (\S+) tokens/s is (\S+)× below the other replicas' median (\S+))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "output %1 tokens/s is %2× below the other replicas' median %3")},
    {R"(ISL error: the server counted (\S+) prompt tokens per request on average \((\S+) % of (\S+), max (\S+)\); prompt lengths are not what was intended)",
     QT_TRANSLATE_NOOP(
         "Throughline::ValidityNotes",
         "ISL error: the server counted %1 prompt tokens per request on average (%2 % of %3, max "
         "%4); prompt lengths are not what was intended")},
    {R"((\d+) sent requests are missing from this point: no record came back for 1\.5 s after it was cancelled \(a starved client\), so they are in no statistic\.)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "%1 sent requests are missing from this point: no record came back for 1.5 s after it "
                       "was cancelled (a starved client), so they are in no statistic.")},
    {R"(Server timing \((\S+)\): (\d+) of (\d+) successful requests have none, so they have client-side parts only; first: (.*)\.)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "Server timing (%1): %2 of %3 successful requests have none, so they have client-side "
                       "parts only; first: %4.")},
    {R"(Server timing \((\S+)\): (\d+) of (\d+) successful requests have none, so they have client-side parts only\.)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "Server timing (%1): %2 of %3 successful requests have none, so they have client-side "
                       "parts only.")},
    {R"(Server timing: (.*))", QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "Server timing: %1")},
    {R"(chat template (.+) could not be read; prompts counted with the model's own (.+))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "chat template %1 could not be read; prompts counted with the model's own %2")},
    {R"(chat template (.+) is not a form the formatter knows \(Llama 3\.1/3\.3, DeepSeek V3/R1, gpt-oss harmony, ChatML\); prompts counted with the model's own (.+))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "chat template %1 is not a form the formatter knows (Llama 3.1/3.3, DeepSeek V3/R1, "
                       "gpt-oss harmony, ChatML); prompts counted with the model's own %2")},
    {R"(chat template (.+) counted as ([^;]+); the formatter ignores its (.+))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "chat template %1 counted as %2; the formatter ignores its %3")},
    {R"(chat template (.+) counted as ([^;]+))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "chat template %1 counted as %2")},
    {R"(approximate ISL: tokenizer cache unusable \((.*)\))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "approximate ISL: tokenizer cache unusable (%1)")},
    {R"(approximate ISL: no tokenizer is known for model (.+) \(resources/catalog/models_extra\.csv\))",
     QT_TRANSLATE_NOOP(
         "Throughline::ValidityNotes",
         "approximate ISL: no tokenizer is known for model %1 (resources/catalog/models_extra.csv)")},
    {R"(approximate ISL: tokenizer (\S+) not fetched; run `throughline-cli tokenizers fetch`)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "approximate ISL: tokenizer %1 not fetched; run `throughline-cli tokenizers fetch`")},
    {R"(approximate ISL: tokenizer (\S+) failed to load: (.*))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "approximate ISL: tokenizer %1 failed to load: %2")},
};

const SentenceForms &forms()
{
    static const SentenceForms f(kContext, kForms);
    return f;
}

} // namespace

QString ValidityNotes::translate(const std::string &note)
{
    return forms().translate(QString::fromStdString(note));
}

bool ValidityNotes::known(const std::string &note)
{
    return forms().known(QString::fromStdString(note));
}

} // namespace Throughline
