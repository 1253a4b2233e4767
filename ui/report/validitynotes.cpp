#include "ui/report/validitynotes.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

#include <vector>

namespace Throughline {

namespace {

constexpr const char *kContext = "Throughline::ValidityNotes";

// One sentence form: its pattern (anchored; capture group i fills %i) and its English text, the translation
// source, which reproduces the note exactly. `nested` marks the one capture that is itself a note (a slow
// replica's reason), translated the same way. The sentences are written by core/metrics/pointanalysis.cpp,
// core/engine/replicaanalysis.cpp, core/metrics/pointaggregate.cpp, core/run/pointfinish.cpp and
// core/engine/tokenizerpromptsource.cpp; a variant with an optional part is listed once with and once without.
struct Form {
    const char *pattern;
    const char *text;
    int nested = 0;
};

const Form kForms[] = {
    {R"(telemetry: (\d+) of (\d+) scrapes failed \(last: (.*)\))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "telemetry: %1 of %2 scrapes failed (last: %3)")},
    {R"(telemetry: (\d+) of (\d+) scrapes failed)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "telemetry: %1 of %2 scrapes failed")},
    {R"(stalls: (\d+) of (\d+) streams received nothing for longer than (\S+) ms \(longest (\S+) ms, request (\d+)\))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "stalls: %1 of %2 streams received nothing for longer than %3 ms (longest %4 ms, request "
                       "%5)")},
    {R"(stalls: (\d+) of (\d+) streams received nothing for longer than (\S+) ms \(longest (\S+) ms\))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "stalls: %1 of %2 streams received nothing for longer than %3 ms (longest %4 ms)")},
    {R"(replica (\S+) much slower than the others: (.*))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "replica %1 much slower than the others: %2"), 2},
    {R"((\S+ p50) (\S+) ms is (\S+)× the other replicas' median (\S+) ms)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "%1 %2 ms is %3× the other replicas' median %4 ms")},
    {R"(output (\S+) tokens/s is (\S+)× below the other replicas' median (\S+))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "output %1 tokens/s is %2× below the other replicas' median %3")},
    {R"(ISL error: the server counted (\S+) prompt tokens per request on average \((\S+) % of (\S+), max (\S+)\); prompt lengths are not what was intended)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "ISL error: the server counted %1 prompt tokens per request on average (%2 % of %3, max "
                       "%4); prompt lengths are not what was intended")},
    {R"((\d+) sent requests are missing from this point: no record came back for 1\.5 s after it was cancelled \(a starved client\), so they are in no statistic\.)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "%1 sent requests are missing from this point: no record came back for 1.5 s after it "
                       "was cancelled (a starved client), so they are in no statistic.")},
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
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "approximate ISL: no tokenizer is known for model %1 (resources/catalog/models_extra.csv)")},
    {R"(approximate ISL: tokenizer (\S+) not fetched; run `throughline-cli tokenizers fetch`)",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes",
                       "approximate ISL: tokenizer %1 not fetched; run `throughline-cli tokenizers fetch`")},
    {R"(approximate ISL: tokenizer (\S+) failed to load: (.*))",
     QT_TRANSLATE_NOOP("Throughline::ValidityNotes", "approximate ISL: tokenizer %1 failed to load: %2")},
};

struct CompiledForm {
    QRegularExpression re;
    const Form *form;
};

const std::vector<CompiledForm> &compiled()
{
    static const std::vector<CompiledForm> forms = [] {
        std::vector<CompiledForm> out;
        for (const Form &f : kForms)
            out.push_back({QRegularExpression(QRegularExpression::anchoredPattern(QString::fromUtf8(f.pattern))),
                           &f});
        return out;
    }();
    return forms;
}

// %1…%9 filled in one pass, so a captured text holding "%2" (a URL, an error message) stays as it is.
QString fill(const QString &text, const QStringList &args)
{
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const int n = i + 1 < text.size() ? text[i + 1].digitValue() : -1;
        if (text[i] == u'%' && n >= 1 && n <= args.size()) {
            out += args[n - 1];
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

QString translateText(const QString &note)
{
    for (const CompiledForm &c : compiled()) {
        const QRegularExpressionMatch m = c.re.match(note);
        if (!m.hasMatch())
            continue;
        QStringList args;
        for (int i = 1; i <= c.re.captureCount(); ++i)
            args << (i == c.form->nested ? translateText(m.captured(i)) : m.captured(i));
        return fill(QCoreApplication::translate(kContext, c.form->text), args);
    }
    return note;
}

} // namespace

QString ValidityNotes::translate(const std::string &note)
{
    return translateText(QString::fromStdString(note));
}

bool ValidityNotes::known(const std::string &note)
{
    const QString n = QString::fromStdString(note);
    for (const CompiledForm &c : compiled())
        if (c.re.match(n).hasMatch())
            return true;
    return false;
}

} // namespace Throughline
