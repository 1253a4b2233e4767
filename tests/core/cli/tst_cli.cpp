// End-to-end tests of throughline-cli: runs the built executable (THROUGHLINE_CLI_PATH) on real
// files and checks exit codes, stdout/stderr split, and output formats.
#include "app/clitestprocess.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void version();
    void help();
    void usageErrors_data();
    void usageErrors();
    void validateDemo();
    void validateReportsEveryProblem();
    void validateJson();
    void validateNeverEchoesSecrets();
    void validateV0();
    void expandTable();
    void expandJson();
    void expandCsv();
    void expandOnly();
    void expandRefusesInvalid();
    void globalFlagsAfterCommand();
    void runRecordsHistoryAndBundle();
    void runFirstTokenPriorityFlag();
    void runRepeats();

private:
    using Run = CliRun;
    Run run(const QStringList &args, const QByteArray &stdinData = {});
    QString writeFile(const QString &name, const QByteArray &content);
    static bool demoRunPassed(const Run &r, const QString &outDir);

    QTemporaryDir m_dir;
    QString m_demo;
};

TestCli::Run TestCli::run(const QStringList &args, const QByteArray &stdinData)
{
    return runCli(m_dir.filePath(u"history.sqlite"_qs), args, 30000, stdinData);
}

QString TestCli::writeFile(const QString &name, const QByteArray &content)
{
    return writeTestFile(m_dir.filePath(name), content);
}

void TestCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::exists(QStringLiteral(THROUGHLINE_CLI_PATH)));
    m_demo = QStringLiteral(THROUGHLINE_SOURCE_DIR "/resources/campaigns/demo.json");
}

void TestCli::version()
{
    const Run r = run({u"--version"_qs});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.startsWith(u"throughline 0."_qs), qPrintable(r.out));
    const Run j = run({u"--version"_qs, u"--json"_qs});
    QCOMPARE(j.code, 0);
    QVERIFY(QJsonDocument::fromJson(j.out.toUtf8()).object().contains(u"tool_version"_qs));
}

void TestCli::help()
{
    const Run r = run({u"--help"_qs});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains(u"validate"_qs));
    QVERIFY(r.out.contains(u"expand"_qs));
    QVERIFY(r.out.contains(u"--no-color"_qs));
    const Run v = run({u"validate"_qs, u"--help"_qs});
    QCOMPARE(v.code, 0);
    QVERIFY(v.out.contains(u"FILE"_qs));
}

void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("stderrContains");
    QTest::newRow("no command") << QStringList{} << u"missing COMMAND"_qs;
    QTest::newRow("unknown command") << QStringList{u"frobnicate"_qs} << u"unknown command 'frobnicate'"_qs;
    QTest::newRow("validate without file") << QStringList{u"validate"_qs} << u"missing FILE"_qs;
    QTest::newRow("two files") << QStringList{u"validate"_qs, u"a"_qs, u"b"_qs}
                               << u"expected one FILE, got 2"_qs;
    QTest::newRow("unknown option") << QStringList{u"expand"_qs, u"--frob"_qs, u"x"_qs}
                                    << u"Unknown option 'frob'"_qs;
    QTest::newRow("bad format") << QStringList{u"expand"_qs, u"x.json"_qs, u"--format"_qs, u"xml"_qs}
                                << u"--format: expected table, json or csv, got 'xml'"_qs;
    QTest::newRow("bad only") << QStringList{u"expand"_qs, u"x.json"_qs, u"--only"_qs, u"modle=x"_qs}
                              << u"--only: filter term 1 'modle=x': unknown key 'modle'"_qs;
    QTest::newRow("bad log level") << QStringList{u"validate"_qs, u"--log-level"_qs, u"loud"_qs, u"x"_qs}
                                   << u"--log-level: expected debug, info, warning or error, got 'loud'"_qs;
    QTest::newRow("missing file") << QStringList{u"validate"_qs, u"/nonexistent/c.json"_qs}
                                  << u"/nonexistent/c.json: cannot open"_qs;
    QTest::newRow("bad read order") << QStringList{u"run"_qs, u"x.json"_qs, u"--first-token-priority"_qs,
                                                   u"maybe"_qs}
                                    << u"--first-token-priority: expected on or off, got 'maybe'"_qs;
    QTest::newRow("read order with resume")
        << QStringList{u"run"_qs, u"--resume"_qs, u"0123456789ab"_qs, u"--first-token-priority"_qs, u"off"_qs}
        << u"--resume cannot be combined with --first-token-priority"_qs;
}

void TestCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, stderrContains);
    const Run r = run(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(stderrContains), qPrintable(r.err));
}

void TestCli::validateDemo()
{
    const Run r = run({u"validate"_qs, m_demo});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.out, m_demo + u": ok (2 scenarios)\n"_qs);
    QCOMPARE(r.err, QString());
}

void TestCli::validateReportsEveryProblem()
{
    const QString path =
        writeFile(u"bad.json"_qs, "{\"schema\": \"throughline.campaign/1\", \"name\": \"b\",\n"
                                  " \"models\": [\"gpt-oss-20\"], \"backends\": [\"vllm\"],\n"
                                  " \"deployments\": [{\"gpu\": \"H200\", \"gpus\": 0}],\n"
                                  " \"phases\": [{\"preset\": \"Chat\"}],\n"
                                  " \"endpoints\": [{\"base_url\": \"127.0.0.1:8000\"}]}\n");
    const Run r = run({u"validate"_qs, path});
    QCOMPARE(r.code, 2);
    const QStringList lines = r.err.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(
        lines[0],
        path +
            u":2:13: /models/0: unknown model 'gpt-oss-20' (did you mean 'gpt-oss-20b'?); add it under custom_models to use it"_qs);
    QCOMPARE(lines[1], path + u":3:42: /deployments/0/gpus: must be between 1 and 1000000, got 0"_qs);
    QCOMPARE(lines[2], path + u":5:29: /endpoints/0/base_url: expected an http:// or https:// URL"_qs);
    QCOMPARE(lines[3], path + u": 3 problems"_qs);
    QCOMPARE(r.out, QString());
}

void TestCli::validateJson()
{
    const QString path = writeFile(u"bad2.json"_qs, "{\"schema\": \"throughline.campaign/9\"}");
    const Run r = run({u"--json"_qs, u"validate"_qs, path});
    QCOMPARE(r.code, 2);
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(u"ok"_qs).toBool(true), false);
    const QJsonArray problems = o.value(u"problems"_qs).toArray();
    QCOMPARE(problems.size(), 1);
    QCOMPARE(problems[0].toObject().value(u"pointer"_qs).toString(), u"/schema"_qs);
    QCOMPARE(problems[0].toObject().value(u"line"_qs).toInt(), 1);
    QCOMPARE(problems[0].toObject().value(u"column"_qs).toInt(), 12);
    QVERIFY(problems[0]
                .toObject()
                .value(u"message"_qs)
                .toString()
                .contains(u"newer than this Throughline supports"_qs));
    // Human output went to stderr.
    QVERIFY(r.err.contains(path + u":1:12: /schema: "_qs));
}

void TestCli::validateNeverEchoesSecrets()
{
    const QString path = writeFile(
        u"secret.json"_qs, "{\"schema\": \"throughline.campaign/1\", \"name\": \"s\",\n"
                           " \"models\": [\"gpt-oss-20b\"], \"backends\": [\"vllm\"],\n"
                           " \"deployments\": [{\"gpu\": \"H200\"}], \"phases\": [{\"preset\": \"Chat\"}],\n"
                           " \"endpoints\": [{\"base_url\": \"http://10.0.0.1:8000\",\n"
                           "   \"api_key\": \"sk-proj-TOPSECRET0123456789\"}]}\n");
    for (const bool json : {false, true}) {
        QStringList args{u"validate"_qs, path};
        if (json)
            args.prepend(u"--json"_qs);
        const Run r = run(args);
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(path + u":5:4: /endpoints/0/api_key: literal secrets are not allowed"_qs));
        QVERIFY(!r.err.contains(u"TOPSECRET"_qs));
        QVERIFY(!r.out.contains(u"TOPSECRET"_qs));
    }
}

void TestCli::validateV0()
{
    const Run r =
        run({u"validate"_qs, QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/campaign/v0-campaign.json")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains(u"ok (2 scenarios)"_qs));
}

void TestCli::expandTable()
{
    const Run r = run({u"expand"_qs, m_demo});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith(u"#  scenario"_qs));
    QVERIFY2(lines[1].startsWith(u"1  gpt-oss-20b/vllm/H200×1/Chat  "_qs), qPrintable(lines[1]));
    QVERIFY(lines[2].contains(u"gpt-oss-20b/vllm/H200×1/Reasoning-short"_qs));
    QVERIFY2(lines[1].contains(u"4,8,16,32"_qs), qPrintable(lines[1]));
    // Columns line up (display width, × counts as one).
    QCOMPARE(lines[1].indexOf(u"128"_qs), lines[0].indexOf(u"isl"_qs));
}

void TestCli::expandJson()
{
    for (const QStringList &args : {QStringList{u"expand"_qs, m_demo, u"--format"_qs, u"json"_qs},
                                    QStringList{u"--json"_qs, u"expand"_qs, m_demo}}) {
        const Run r = run(args);
        QCOMPARE(r.code, 0);
        const QJsonArray a = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(a.size(), 2);
        QCOMPARE(a[0].toObject().value(u"id"_qs).toString(), u"gpt-oss-20b/vllm/H200×1/Chat"_qs);
        QCOMPARE(a[1].toObject().value(u"phase"_qs).toObject().value(u"osl"_qs).toInt(), 256);
    }
}

void TestCli::expandCsv()
{
    // Campaigns shipped inside the binary are reachable as ":/campaigns/NAME.json".
    const Run r = run({u"expand"_qs, u":/campaigns/exemplar-recipes.json"_qs, u"--format"_qs, u"csv"_qs});
    QCOMPARE(r.code, 0);
    const Run c = run({u"expand"_qs,
                       QStringLiteral(THROUGHLINE_SOURCE_DIR "/resources/campaigns/exemplar-recipes.json"),
                       u"--format"_qs, u"csv"_qs});
    QCOMPARE(c.code, 0);
    const QStringList lines = c.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 33); // header + the 32 rows of recipe_concurrency.csv
    QVERIFY(lines[0].startsWith(u"id,model,backend,gpu,gpus,prefill_gpus,decode_gpus,"_qs));
    QVERIFY(
        c.out.contains(u"DeepSeek-R1/dynamo/H100×48/Disaggregation,DeepSeek-R1,dynamo,H100,48,32,16,"_qs));
    QCOMPARE(r.out, c.out);
}

void TestCli::expandOnly()
{
    const Run r = run(
        {u"expand"_qs, QStringLiteral(THROUGHLINE_SOURCE_DIR "/resources/campaigns/exemplar-recipes.json"),
         u"--format"_qs, u"csv"_qs, u"--only"_qs, u"model=Llama*,gpu=H100,phase=Chat,phase=Reasoning"_qs});
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[1].startsWith(u"Llama-3.3-70B-Instruct/trtllm/H100×2/Reasoning,"_qs));
    QVERIFY(lines[2].startsWith(u"Llama-3.3-70B-Instruct/trtllm/H100×2/Chat,"_qs));
}

void TestCli::expandRefusesInvalid()
{
    const QString path = writeFile(u"inv.json"_qs, "{\"schema\": \"throughline.campaign/1\"}");
    const Run r = run({u"expand"_qs, path});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains(u"missing required member 'name'"_qs));
    QCOMPARE(r.out, QString());
}

void TestCli::globalFlagsAfterCommand()
{
    const Run r = run({u"expand"_qs, m_demo, u"--no-color"_qs, u"--log-level"_qs, u"debug"_qs, u"--db"_qs,
                       m_dir.filePath(u"x.sqlite"_qs), u"--json"_qs});
    QCOMPARE(r.code, 0);
    QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).array().size(), 2);
    const Run stdinRun = run({u"validate"_qs, u"-"_qs}, [] {
        QFile f(QStringLiteral(THROUGHLINE_SOURCE_DIR "/resources/campaigns/demo.json"));
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }());
    QCOMPARE(stdinRun.code, 0);
}

// `run` records into THROUGHLINE_DB and writes run.tlrun into --out; --no-history adds nothing; a storage
// error exits 3 but the results files are still written.
// Exit 0, or — only in sanitizer builds, whose client runs several times slower — exit 4 where every point
// that is not valid carries nothing but the `client_bound` flag (the engine judging itself correctly).
bool TestCli::demoRunPassed(const Run &r, const QString &outDir)
{
    if (r.code == 0)
        return true;
#if defined(__SANITIZE_ADDRESS__)
    QFile f(outDir + u"/results.json"_qs);
    if (r.code != 4 || !f.open(QIODevice::ReadOnly))
        return false;
    bool sawClientBound = false;
    const QJsonArray scenarios =
        QJsonDocument::fromJson(f.readAll()).object().value(u"scenarios"_qs).toArray();
    for (const QJsonValue &sc : scenarios) {
        for (const QJsonValue &pt : sc.toObject().value(u"points"_qs).toArray()) {
            for (const QJsonValue &flag :
                 pt.toObject().value(u"validity"_qs).toObject().value(u"flags"_qs).toArray()) {
                if (flag.toString() == u"client_bound"_qs)
                    sawClientBound = true;
                else if (flag.toString() != u"low_sample"_qs) // the demo's own, also in passing runs
                    return false;
            }
        }
    }
    qInfo("sanitizer build: demo exited 4 with only client_bound flags; accepted");
    return sawClientBound;
#else
    Q_UNUSED(outDir);
    return false;
#endif
}

void TestCli::runRecordsHistoryAndBundle()
{
    const QString out1 = m_dir.filePath(u"run-out1"_qs);
    const Run r = run({u"run"_qs, m_demo, u"--out"_qs, out1});
    QVERIFY2(demoRunPassed(r, out1), qPrintable(QString::number(r.code) + u"\n"_qs + r.out + r.err));
    const qsizetype at = r.out.indexOf(u"recorded run "_qs);
    QVERIFY2(at >= 0, qPrintable(r.out + r.err));
    const QString uuid = r.out.mid(at + 13, 36);
    QVERIFY(QFile::exists(out1 + u"/results.json"_qs));
    QVERIFY(QFile::exists(out1 + u"/run.tlrun"_qs));
    {
        // MLPerf Endpoints' per-point summaries beside results.json (one per concurrency point), and they
        // import back as one run (docs/mlperf-endpoints.md).
        QDirIterator it(out1 + u"/mlperf"_qs, {u"result_summary.json"_qs}, QDir::Files,
                        QDirIterator::Subdirectories);
        int summaries = 0;
        while (it.hasNext()) {
            it.next();
            ++summaries;
        }
        QVERIFY2(summaries >= 3, qPrintable(QString::number(summaries))); // the demo's 1, 4, 16 at least
        const Run imp =
            run({u"import"_qs, out1 + u"/mlperf"_qs, u"--db"_qs, m_dir.filePath(u"mlperf-import.sqlite"_qs)});
        QVERIFY2(imp.code == 0, qPrintable(imp.out + imp.err));
        QVERIFY2(imp.err.contains(u"(mlperf-endpoints)"_qs) || imp.out.contains(u"(mlperf-endpoints)"_qs),
                 qPrintable(imp.out + imp.err));
        // The demo's short points break the MLPerf duration rule, counted in model time: exit 1, rule named.
        const Run chk = run({u"mlperf-check"_qs, out1 + u"/results.json"_qs, u"--json"_qs});
        QCOMPARE(chk.code, 1);
        QVERIFY2(chk.err.contains(u"fail EPR-28"_qs) && chk.err.contains(u"model time"_qs),
                 qPrintable(chk.err));
        const QJsonObject report = QJsonDocument::fromJson(chk.out.toUtf8()).object();
        QCOMPARE(report[u"preset"_qs].toString(), u"mlperf-endpoints-1.0"_qs);
        QVERIFY(report[u"scenarios"_qs].toArray().first().toObject()[u"failed_rules"_qs].toArray().contains(
            QJsonValue(u"EPR-28"_qs)));
        QCOMPARE(run({u"mlperf-check"_qs, out1 + u"/results.json"_qs, u"--dataset"_qs, u"nope"_qs}).code, 2);
        // The same checks on MLPerf's own per-point files (here the ones the run wrote).
        const Run dirChk = run({u"mlperf-check"_qs, out1 + u"/mlperf"_qs});
        QCOMPARE(dirChk.code, 1);
        QVERIFY2(dirChk.out.contains(u"fail EPR-28"_qs), qPrintable(dirChk.out + dirChk.err));
    }
    {
        // Default read order (the demo campaign does not set it): first-token priority on.
        QFile rf(out1 + u"/results.json"_qs);
        QVERIFY(rf.open(QIODevice::ReadOnly));
        const QJsonArray scenarios =
            QJsonDocument::fromJson(rf.readAll()).object()[u"scenarios"_qs].toArray();
        QVERIFY(!scenarios.isEmpty());
        for (const QJsonValue &sc : scenarios)
            QCOMPARE(sc[u"engine"_qs][u"first_token_priority"_qs], QJsonValue(true));
        // The demo shows a curve: every scenario has ≥ 4 points with enough requests for TTFT p95 and
        // TPOT p90 (no low_sample), so the table is numbers, not n/a.
        for (const QJsonValue &sc : scenarios) {
            const QJsonArray points = sc[u"points"_qs].toArray();
            QVERIFY(points.size() >= 4);
            for (const QJsonValue &p : points) {
                QVERIFY(!p[u"validity"_qs][u"flags"_qs].toArray().contains(u"low_sample"_qs));
                QVERIFY(p[u"metrics"_qs][u"ttft_ms"_qs][u"p95"_qs].isDouble());
                QVERIFY(p[u"metrics"_qs][u"tpot_ms"_qs][u"p90"_qs].isDouble());
            }
        }
        QVERIFY2(!r.out.contains(u"low_sample"_qs), qPrintable(r.out));
    }

    const Run runs = run({u"runs"_qs});
    QCOMPARE(runs.code, 0);
    QVERIFY2(runs.out.contains(uuid.left(8)), qPrintable(runs.out));
    QVERIFY2(runs.out.contains(u"1 run"_qs), qPrintable(runs.out));
    const Run show = run({u"show"_qs, uuid.left(8)});
    QCOMPARE(show.code, 0);
    QVERIFY(show.out.contains(uuid));
    const Run showBundle = run({u"show"_qs, out1 + u"/run.tlrun"_qs});
    QCOMPARE(showBundle.code, 0);
    QVERIFY(showBundle.out.contains(uuid));

    const QString out2 = m_dir.filePath(u"run-out2"_qs);
    const Run nh = run({u"run"_qs, m_demo, u"--no-history"_qs, u"--out"_qs, out2});
    QVERIFY2(demoRunPassed(nh, out2), qPrintable(QString::number(nh.code) + u"\n"_qs + nh.out + nh.err));
    QVERIFY(QFile::exists(out2 + u"/run.tlrun"_qs));
    const Run runs2 = run({u"runs"_qs});
    QVERIFY2(runs2.out.contains(u"1 run"_qs), qPrintable(runs2.out));

    // A directory is not a database: storage error, exit 3, results still written.
    const QString out3 = m_dir.filePath(u"run-out3"_qs);
    const Run bad = run({u"--db"_qs, m_dir.path(), u"run"_qs, m_demo, u"--out"_qs, out3});
    QCOMPARE(bad.code, 3);
    QVERIFY2(bad.err.contains(u"history database"_qs), qPrintable(bad.err));
    QVERIFY(QFile::exists(out3 + u"/results.json"_qs));
    QVERIFY(QFile::exists(out3 + u"/run.tlrun"_qs));
}

// `run --first-token-priority off` overrides the campaign (default on) for every scenario: results.json and
// provenance.json say which read order produced the numbers.
void TestCli::runFirstTokenPriorityFlag()
{
    const QString out = m_dir.filePath(u"run-read-order"_qs);
    const Run r = run({u"run"_qs, m_demo, u"--only"_qs, u"phase=Chat"_qs, u"--no-history"_qs,
                       u"--first-token-priority"_qs, u"off"_qs, u"--out"_qs, out});
    QVERIFY2(demoRunPassed(r, out), qPrintable(QString::number(r.code) + u"\n"_qs + r.out + r.err));
    QFile rf(out + u"/results.json"_qs);
    QVERIFY(rf.open(QIODevice::ReadOnly));
    const QJsonArray scenarios = QJsonDocument::fromJson(rf.readAll()).object()[u"scenarios"_qs].toArray();
    QCOMPARE(scenarios.size(), 1);
    QCOMPARE(scenarios[0][u"engine"_qs][u"first_token_priority"_qs], QJsonValue(false));
    QFile pf(out + u"/provenance.json"_qs);
    QVERIFY(pf.open(QIODevice::ReadOnly));
    const QJsonObject prov = QJsonDocument::fromJson(pf.readAll()).object();
    QCOMPARE(prov[u"engine"_qs][u"first_token_priority"_qs], QJsonValue(false));
    QCOMPARE(prov[u"scenarios"_qs][0][u"first_token_priority"_qs], QJsonValue(false));
}

// plan.repeats through the CLI: the plan lists each repeat, results.json (/4) holds every repeat as a point
// with its across-repeat intervals, and the table prints the across-repeat line under the load.
void TestCli::runRepeats()
{
    QFile demo(m_demo);
    QVERIFY(demo.open(QIODevice::ReadOnly));
    QJsonObject campaign = QJsonDocument::fromJson(demo.readAll()).object();
    QJsonObject plan = campaign[u"plan"_qs].toObject();
    plan[u"repeats"_qs] = 3;
    plan[u"concurrencies"_qs] = QJsonArray{4};
    plan[u"request_count"_qs] = 60;
    campaign[u"plan"_qs] = plan;
    const QString path = writeFile(u"repeats.json"_qs, QJsonDocument(campaign).toJson());
    const QString out = m_dir.filePath(u"run-repeats"_qs);
    const Run r =
        run({u"run"_qs, path, u"--only"_qs, u"phase=Chat"_qs, u"--no-history"_qs, u"--out"_qs, out});
    QVERIFY2(r.code == 0 || r.code == 4, qPrintable(QString::number(r.code) + u"\n"_qs + r.out + r.err));
    QVERIFY2(r.out.contains(u"C=4 #3"_qs), qPrintable(r.out));
    QVERIFY2(r.out.contains(u"across 3 repeats (mean, Student t): out tok/s"_qs), qPrintable(r.out));

    QFile pf(out + u"/plan.json"_qs);
    QVERIFY(pf.open(QIODevice::ReadOnly));
    const QJsonArray planned =
        QJsonDocument::fromJson(pf.readAll()).object()[u"scenarios"_qs][0][u"points"_qs].toArray();
    QCOMPARE(planned.size(), 3);
    QCOMPARE(planned[2][u"load"_qs][u"repeat"_qs].toInt(), 3);

    QFile rf(out + u"/results.json"_qs);
    QVERIFY(rf.open(QIODevice::ReadOnly));
    const QJsonObject results = QJsonDocument::fromJson(rf.readAll()).object();
    QCOMPARE(results[u"schema"_qs].toString(), u"throughline.results/5"_qs);
    const QJsonArray points = results[u"scenarios"_qs][0][u"points"_qs].toArray();
    QCOMPARE(points.size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(points[i][u"load"_qs][u"repeat"_qs].toInt(), i + 1);
        const QJsonObject across =
            points[i][u"intervals_across"_qs][u"metrics"_qs][u"output_tps"_qs][u"value"_qs].toObject();
        QCOMPARE(across[u"repeats"_qs].toInt(), 3);
        QVERIFY(across[u"lower"_qs].toDouble() < across[u"upper"_qs].toDouble());
    }
    for (const QJsonValue &check : results[u"scenarios"_qs][0][u"verdict"_qs][u"checks"_qs].toArray())
        if (check[u"interval"_qs].isObject())
            QVERIFY(check[u"interval_source"_qs].isString());
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
