// Tests of Catalog (the built-in resources) and of the CSV reader it uses.
#include "core/campaign/catalog.h"
#include "core/util/csvreader.h"

#include <QTest>

using namespace Throughline;

class TestCatalog : public QObject
{
    Q_OBJECT
private slots:
    void loadsAllTables();
    void models();
    void gpuAliases();
    void backendAliases();
    void phasePresets();
    void recipes();
    void perfOverview();
    void sloPresets();
    void csvQuotedFields();
    void csvErrors_data();
    void csvErrors();
};

void TestCatalog::loadsAllTables()
{
    auto cat = Catalog::loadBuiltin();
    QVERIFY2(cat.ok(), cat.ok() ? "" : cat.error().message.c_str());
    QCOMPARE(cat->models().size(), size_t(4));
    QCOMPARE(cat->gpus().size(), size_t(5));
    QCOMPARE(cat->backends().size(), size_t(7));
    QCOMPARE(cat->phasePresets().size(), size_t(5));
    QCOMPARE(cat->sloPresets().size(), size_t(8));
    QCOMPARE(cat->recipes().size(), size_t(32));
    QCOMPARE(cat->perfOverview().size(), size_t(38));
    QCOMPARE(&Catalog::builtin(), &Catalog::builtin());
}

void TestCatalog::models()
{
    const auto &cat = Catalog::builtin();
    const ModelSpec *ds = cat.model("deepseek-r1");
    QVERIFY(ds);
    QCOMPARE(ds->name, std::string("DeepSeek-R1"));
    QCOMPARE(ds->attention, ModelSpec::Attention::Mla);
    QVERIFY(ds->isMoe());
    QCOMPARE(ds->experts, 256);
    QCOMPARE(ds->topK, 8);
    QCOMPARE(ds->kvHeads, 0);
    QCOMPARE(ds->kvElemsPerToken, 35136.0);
    QCOMPARE(ds->maxContext, 163840);
    QCOMPARE(ds->tokenizer, std::string("deepseek_v3"));
    QVERIFY(ds->reasoning);
    QVERIFY(!ds->slidingWindowHalf);

    const ModelSpec *oss = cat.model("gpt-oss-120b");
    QVERIFY(oss);
    QVERIFY(oss->slidingWindowHalf);
    QVERIFY(oss->isMoe());
    QCOMPARE(oss->attention, ModelSpec::Attention::Gqa);
    QCOMPARE(oss->activeParamsB, 5.1);
    QCOMPARE(oss->tokenizer, std::string("gptoss"));
    QVERIFY(cat.model("gpt-oss-20b")->slidingWindowHalf);

    const ModelSpec *llama = cat.model("meta-llama/Llama-3.3-70B-Instruct"); // by HF id
    QVERIFY(llama);
    QVERIFY(!llama->isMoe());
    QVERIFY(!llama->reasoning);
    QCOMPARE(llama->headDim, 128);
    QCOMPARE(llama->tokenizer, std::string("llama3_1"));
    QVERIFY(!cat.model("nope"));
}

void TestCatalog::gpuAliases()
{
    const auto &cat = Catalog::builtin();
    QCOMPARE(cat.gpu("H100-SXM")->name, std::string("H100"));
    QCOMPARE(cat.gpu("h200-sxm")->name, std::string("H200"));
    QCOMPARE(cat.gpu("GB300")->hbmGb, 279.0);
    QCOMPARE(cat.gpu("H100")->fp4DenseTflops, 0.0); // Hopper: no FP4 tensor cores
    QCOMPARE(cat.gpu("B200")->fp4DenseTflops, 9000.0);
    QVERIFY(!cat.gpu("A100"));
}

void TestCatalog::backendAliases()
{
    const auto &cat = Catalog::builtin();
    QCOMPARE(cat.backend("TRT-LLM")->id, std::string("trtllm"));
    QCOMPARE(cat.backend("Dynamo+TRT-LLM")->id, std::string("dynamo"));
    QCOMPARE(cat.backend("SGLang")->id, std::string("sglang"));
    QCOMPARE(cat.backend("llama.cpp")->id, std::string("llamacpp"));
    const BackendPreset *trt = cat.backend("trtllm");
    QCOMPARE(trt->telemetry.size(), size_t(2));
    QCOMPARE(trt->telemetry[1].format, TelemetrySource::Format::TrtllmJson);
    QCOMPARE(trt->telemetry[0].path, std::string("/prometheus/metrics"));
    QVERIFY(cat.backend("dynamo")->sendNvextIgnoreEos);
    QCOMPARE(cat.backend("openai")->maxTokensField, std::string("max_completion_tokens"));
    QVERIFY(cat.backend("openai")->telemetry.empty());
    QCOMPARE(cat.backend("nim")->telemetry[0].path, std::string("/v1/metrics"));
    QVERIFY(!cat.backend("tgi"));
}

void TestCatalog::phasePresets()
{
    const auto &cat = Catalog::builtin();
    const Phase *s = cat.phasePreset("summarization");
    QVERIFY(s);
    QCOMPARE(s->isl, 8000);
    QCOMPARE(s->osl, 512);
    QCOMPARE(cat.phasePreset("Disaggregation")->isl, 8150);
    QCOMPARE(cat.phasePresets().front().name, std::string("Reasoning"));
}

void TestCatalog::recipes()
{
    const auto &rows = Catalog::builtin().recipes();
    // Disaggregated pools come from the source column.
    int disagg = 0;
    for (const auto &r : rows) {
        if (r.prefillGpus > 0) {
            ++disagg;
            QCOMPARE(r.backend, std::string("dynamo"));
            QCOMPARE(r.prefillGpus + r.decodeGpus, r.gpus);
            QCOMPARE(r.phase, std::string("Disaggregation"));
        }
    }
    QCOMPARE(disagg, 3);
    const auto &h100 = rows[18];
    QCOMPARE(h100.gpu, std::string("H100"));
    QCOMPARE(h100.prefillGpus, 32);
    QCOMPARE(h100.decodeGpus, 16);
    QCOMPARE(rows[16].prefillGpus, 24);
    QCOMPARE(rows[16].decodeGpus, 8);
    // The gpt-oss Dynamo recipe: custom 128/1000.
    const auto &oss = rows[27];
    QCOMPARE(oss.model, std::string("gpt-oss-120b"));
    QCOMPARE(oss.backend, std::string("dynamo"));
    QCOMPARE(oss.isl, 128);
    QCOMPARE(oss.osl, 1000);
    QCOMPARE(oss.concurrency, 2048);
    QCOMPARE(oss.numRequests, 20480);
    QCOMPARE(rows[0].backend, std::string("trtllm"));
    QCOMPARE(rows[0].isl, 1000);
    QCOMPARE(rows[12].backend, std::string("sglang"));
    QCOMPARE(rows[9].numRequests, 30720); // the H100 Chat typo corrected in the CSV
}

void TestCatalog::perfOverview()
{
    const auto &rows = Catalog::builtin().perfOverview();
    QCOMPARE(rows[0].gpus, 4); // DEP4
    QCOMPARE(rows[2].gpus, 8); // DEP8
    QCOMPARE(rows[8].parallelism, std::string("DEP2"));
    QCOMPARE(rows[8].gpus, 2);
    QCOMPARE(rows[8].outputTokPerSPerGpu, 25943.0);
    QCOMPARE(rows.back().phase, std::string("Chat"));
    QCOMPARE(rows.back().source, std::string("same (6378 total / 2 GPUs)"));
}

void TestCatalog::sloPresets()
{
    const auto &p = Catalog::builtin().sloPresets();
    QCOMPARE(p[1].model, std::string("DeepSeek-R1"));
    QCOMPARE(p[1].scenario, std::string("interactive"));
    QCOMPARE(p[1].slo.ttftMs, 1500.0);
    QCOMPARE(p[1].slo.tpotMs, 15.0);
    QCOMPARE(p[1].slo.percentile, 99.0);
}

void TestCatalog::csvQuotedFields()
{
    const std::string text = "a,b,c\r\n1,\"x, \"\"y\"\"\",3\n\n\"multi\nline\",,\"\"\nlast,row,\n";
    auto t = CsvReader::parse(text, "t.csv");
    QVERIFY2(t.ok(), t.ok() ? "" : t.error().message.c_str());
    QCOMPARE(t->header.size(), size_t(3));
    QCOMPARE(t->rows.size(), size_t(3));
    QCOMPARE(t->rows[0].text(1), std::string("x, \"y\""));
    QCOMPARE(t->rows[0].line, 2);
    QCOMPARE(t->rows[0].fields[2].column, 14);
    QCOMPARE(t->rows[1].text(0), std::string("multi\nline"));
    QCOMPARE(t->rows[1].line, 4);
    QCOMPARE(t->rows[1].fields[1].line, 5);
    QCOMPARE(t->rows[1].fields[1].column, 7);
    QCOMPARE(t->rows[2].line, 6);
    QCOMPARE(t->rows[2].text(2), std::string());
    QCOMPARE(t->rows[2].text(7), std::string());
    QCOMPARE(t->column("c"), 2);
    QCOMPARE(t->column("zz"), -1);
}

void TestCatalog::csvErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("unterminated") << u"a,b\n1,\"oops\n"_qs << u"t.csv:2:3: unterminated quoted field"_qs;
    QTest::newRow("after-quote") << u"a,b\n\"x\"y,2\n"_qs
                                 << u"t.csv:2:4: unexpected character after closing quote"_qs;
    QTest::newRow("bare-quote") << u"a,b\nx\"y,2\n"_qs << u"t.csv:2:2: quote inside an unquoted field"_qs;
    QTest::newRow("too-many") << u"a,b\n1,2,3\n"_qs << u"t.csv:2:5: row has 3 fields, header has 2"_qs;
    QTest::newRow("empty") << u""_qs << u"t.csv:1:1: empty CSV (no header row)"_qs;
}

void TestCatalog::csvErrors()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    auto t = CsvReader::parse(text.toStdString(), "t.csv");
    QVERIFY(!t.ok());
    QCOMPARE(QString::fromStdString(t.error().message), message);
}

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
