// A point's validity notes in the installed language (ui/report/validitynotes): every sentence form core
// writes is known, English reproduces the stored note exactly, German translates it with its numbers, names
// and nested reason intact, and a note of no known form is shown as written.
#include "ui/guitestmain.h"

#include "ui/report/validitynotes.h"
#include "ui/settings/translationloader.h"

#include <QTranslator>
#include <QtTest>

using namespace Throughline;

namespace {

// One note of every form, as core writes them (pointanalysis, replicaanalysis, pointaggregate, pointfinish,
// tokenizerpromptsource), with the words the German text must hold.
struct Sample {
    const char *note;
    QStringList german; // fragments of the German text (numbers and names kept, German words)
};

const QList<Sample> &samples()
{
    static const QList<Sample> s = {
        {"telemetry: 3 of 40 scrapes failed (last: http://127.0.0.1:8000/metrics: Couldn't connect to "
         "server)",
         {u"3 von 40"_qs, u"http://127.0.0.1:8000/metrics: Couldn't connect to server"_qs}},
        {"telemetry: 2 of 12 scrapes failed", {u"2 von 12"_qs}},
        {"stalls: 4 of 210 streams received nothing for longer than 250.0 ms (longest 1830.5 ms, request 77)",
         {u"4 von 210"_qs, u"250.0 ms"_qs, u"1830.5 ms"_qs, u"77"_qs}},
        {"stalls: 1 of 9 streams received nothing for longer than 80.2 ms (longest 91.0 ms)",
         {u"1 von 9"_qs, u"80.2 ms"_qs, u"91.0 ms"_qs}},
        {"replica 2 much slower than the others: TPOT p50 41.20 ms is 2.1× the other replicas' median 19.60 "
         "ms",
         {u"Replikat 2"_qs, u"TPOT p50 41.20 ms"_qs, u"2.1"_qs, u"19.60 ms"_qs}},
        {"replica 0 much slower than the others: output 310.5 tokens/s is 2.4× below the other replicas' "
         "median 745.1",
         {u"Replikat 0"_qs, u"310.5"_qs, u"2.4"_qs, u"745.1"_qs}},
        {"ISL error: the server counted +14.0 prompt tokens per request on average (10.9 % of 128, max +16); "
         "prompt lengths are not what was intended",
         {u"ISL"_qs, u"+14.0"_qs, u"10.9 %"_qs, u"128"_qs, u"+16"_qs}},
        {"12 sent requests are missing from this point: no record came back for 1.5 s after it was cancelled "
         "(a starved client), so they are in no statistic.",
         {u"12"_qs, u"1.5 s"_qs}},
        {"chat template /srv/t/llama.jinja could not be read; prompts counted with the model's own llama3",
         {u"/srv/t/llama.jinja"_qs, u"llama3"_qs}},
        {"chat template t.jinja is not a form the formatter knows (Llama 3.1/3.3, DeepSeek V3/R1, gpt-oss "
         "harmony, ChatML); prompts counted with the model's own chatml",
         {u"t.jinja"_qs, u"chatml"_qs, u"ChatML"_qs}},
        {"chat template meta.jinja counted as llama3; the formatter ignores its tools, custom_tools",
         {u"meta.jinja"_qs, u"llama3"_qs, u"tools, custom_tools"_qs}},
        {"chat template meta.jinja counted as llama3", {u"meta.jinja"_qs, u"llama3"_qs}},
        {"approximate ISL: tokenizer cache unusable (/root/.cache: permission denied)",
         {u"/root/.cache: permission denied"_qs}},
        {"approximate ISL: no tokenizer is known for model my-model (resources/catalog/models_extra.csv)",
         {u"my-model"_qs, u"resources/catalog/models_extra.csv"_qs}},
        {"approximate ISL: tokenizer gpt-oss not fetched; run `throughline-cli tokenizers fetch`",
         {u"gpt-oss"_qs, u"`throughline-cli tokenizers fetch`"_qs}},
        {"approximate ISL: tokenizer llama3 failed to load: bad merges line 3",
         {u"llama3"_qs, u"bad merges line 3"_qs}},
        {"Server timing (vllm): 3 of 96 successful requests have none, so they have client-side parts only; "
         "first: request 7f-12: vLLM metrics: missing.",
         {u"vllm"_qs, u"3 von 96"_qs, u"request 7f-12: vLLM metrics: missing"_qs}},
        {"Server timing (llamacpp): 1 of 8 successful requests have none, so they have client-side parts "
         "only.",
         {u"llamacpp"_qs, u"1 von 8"_qs}},
        {"Server timing: http://127.0.0.1:9/perf_metrics: Couldn't connect to server",
         {u"http://127.0.0.1:9/perf_metrics: Couldn't connect to server"_qs}},
    };
    return s;
}

void removeTranslators()
{
    for (QTranslator *t : QCoreApplication::instance()->findChildren<QTranslator *>()) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
}

} // namespace

class TstValidityNotes : public QObject
{
    Q_OBJECT
private slots:
    void englishIsTheNoteAsWritten()
    {
        for (const Sample &s : samples()) {
            QVERIFY2(ValidityNotes::known(s.note), s.note);
            QCOMPARE(ValidityNotes::translate(s.note), QString::fromUtf8(s.note));
        }
    }

    void germanKeepsNumbersAndNames()
    {
        QVERIFY(TranslationLoader::install(QCoreApplication::instance(), u"de"_qs));
        QStringList failures;
        for (const Sample &s : samples()) {
            const QString de = ValidityNotes::translate(s.note);
            if (de == QString::fromUtf8(s.note))
                failures << u"untranslated: "_qs + de;
            for (const QString &part : s.german)
                if (!de.contains(part))
                    failures << u"«%1» lacks «%2»"_qs.arg(de, part);
        }
        // The nested reason of a slow replica is translated too (no English sentence left inside).
        const QString replica = ValidityNotes::translate(samples()[4].note);
        removeTranslators();
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
        QVERIFY2(!replica.contains(u"the other replicas"_qs), qPrintable(replica));
    }

    void capturedPercentSignsStay()
    {
        QVERIFY(TranslationLoader::install(QCoreApplication::instance(), u"de"_qs));
        const QString de = ValidityNotes::translate("approximate ISL: tokenizer cache unusable (%1 %2 odd)");
        removeTranslators();
        QVERIFY2(de.contains(u"(%1 %2 odd)"_qs), qPrintable(de));
    }

    void unknownNoteAsWritten()
    {
        QVERIFY(!ValidityNotes::known("a note of a form nobody wrote"));
        QCOMPARE(ValidityNotes::translate("a note of a form nobody wrote"),
                 u"a note of a form nobody wrote"_qs);
        QVERIFY(!ValidityNotes::known("telemetry: 3 of 40 scrapes failed and more"));
    }
};

THROUGHLINE_GUI_TEST_MAIN(TstValidityNotes)
#include "tst_validitynotes.moc"
