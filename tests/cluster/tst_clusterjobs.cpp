// The Kubernetes manifests — shipped (packaging/cluster/, placeholders filled as its README's sed does) and
// generated for a campaign (core/cluster/clusterjobs.h) — against the committed batch/v1 Job schema for
// Kubernetes 1.27 (tests/data/cluster/k8s-1.27-job-batch-v1.schema.json, its $comment names the source),
// parsed from YAML by Debian's python3-yaml; the Indexed Job must have completionMode Indexed and
// completions = parallelism = SHARDS = the shard count. A manifest with a misspelt field or a wrong value
// fails the same check. The generated Slurm files are valid shell and carry the options; bad options are
// refused naming the field. No Kubernetes API server ran any of this (docs say so).
#include "core/cluster/clusterjobs.h"
#include "core/cluster/clusterplan.h"
#include "tests/common/jsonschemavalidator.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace Throughline;
using nlohmann::json;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// YAML → JSON by python3-yaml (safe_load: plain data, as kubectl reads it).
json yamlToJson(const std::string &yaml, QString *error)
{
    QProcess py;
    py.start(u"python3"_qs,
             {u"-c"_qs, u"import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)"_qs});
    if (!py.waitForStarted(10000)) {
        *error = u"python3 not found"_qs;
        return {};
    }
    py.write(QByteArray::fromStdString(yaml));
    py.closeWriteChannel();
    py.waitForFinished(20000);
    if (py.exitCode() != 0) {
        *error = QString::fromUtf8(py.readAllStandardError());
        return {};
    }
    return json::parse(py.readAllStandardOutput().toStdString(), nullptr, false);
}

ClusterJobOptions kubernetesOptions(int shards)
{
    ClusterJobOptions o;
    o.scheduler = ClusterScheduler::Kubernetes;
    o.shards = shards;
    o.pointSlotS = 90;
    o.startAt = "2026-12-02T08:00:00Z";
    o.campaignPath = "/home/me/campaign.json";
    o.endpoint = "http://vllm.bench.svc:8000";
    o.image = "registry.example.com/throughline-cli:0.1.0";
    o.runName = "h200-chat-1";
    return o;
}

std::string fileText(const std::vector<ClusterFile> &files, const std::string &name)
{
    for (const ClusterFile &f : files)
        if (f.name == name)
            return f.text;
    return {};
}

} // namespace

class TestClusterJobs : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void manifestsMatchTheSchema_data();
    void manifestsMatchTheSchema();
    void brokenManifestsFail_data();
    void brokenManifestsFail();
    void generatedSlurmFiles();
    void badOptionsNameTheField_data();
    void badOptionsNameTheField();
    void planSplitsEveryPoint();

private:
    // Problems of one manifest: schema, and for the Indexed Job the shard count in its three places.
    QStringList problems(const std::string &yaml, int expectShards);
    json m_schema;
};

void TestClusterJobs::initTestCase()
{
    m_schema = json::parse(
        readFile(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/cluster/k8s-1.27-job-batch-v1.schema.json"))
            .toStdString(),
        nullptr, false);
    QVERIFY(m_schema.is_object() && m_schema.contains("definitions"));
}

QStringList TestClusterJobs::problems(const std::string &yaml, int expectShards)
{
    QString error;
    const json doc = yamlToJson(yaml, &error);
    if (!doc.is_object())
        return {u"not a YAML mapping: "_qs + error};
    QStringList out;
    for (const std::string &p : JsonSchemaValidator(m_schema).validate(doc))
        out << QString::fromStdString(p);
    if (expectShards == 0)
        return out;
    const json spec = doc.value("spec", json::object());
    if (spec.value("completionMode", std::string()) != "Indexed")
        out << u"completionMode is not Indexed"_qs;
    const int completions = spec.value("completions", -1), parallelism = spec.value("parallelism", -1);
    int shardsEnv = -1;
    for (const json &c : spec["template"]["spec"].value("containers", json::array()))
        for (const json &e : c.value("env", json::array()))
            if (e.value("name", std::string()) == "SHARDS")
                shardsEnv = QString::fromStdString(e.value("value", std::string())).toInt();
    if (completions != expectShards || parallelism != expectShards || shardsEnv != expectShards)
        out << QStringLiteral("completions %1, parallelism %2, SHARDS %3; expected %4 each")
                   .arg(completions)
                   .arg(parallelism)
                   .arg(shardsEnv)
                   .arg(expectShards);
    return out;
}

void TestClusterJobs::manifestsMatchTheSchema_data()
{
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<int>("shards"); // 0: the merge Job
    // Shipped, with the README's sed substitutions.
    for (const char *name : {"k8s-indexed-job.yaml", "k8s-merge-job.yaml"}) {
        QString text = QString::fromUtf8(
            readFile(QStringLiteral(THROUGHLINE_SOURCE_DIR "/packaging/cluster/") + QLatin1String(name)));
        text.replace(u"@START_AT@"_qs, u"2026-12-02T08:00:00Z"_qs)
            .replace(u"@POINT_SLOT_S@"_qs, u"90"_qs)
            .replace(u"@RUN@"_qs, u"run-20261202-0800"_qs);
        QTest::newRow(name) << text << (QLatin1String(name) == u"k8s-indexed-job.yaml"_qs ? 4 : 0);
    }
    // Generated for a campaign, fixed start and start chosen at submission (placeholder filled by the
    // submit script's sed).
    for (int n : {2, 3, 16}) {
        auto files = ClusterJobs::generate(kubernetesOptions(n));
        QVERIFY(files);
        QTest::addRow("generated job, %d shards", n)
            << QString::fromStdString(fileText(*files, "k8s-indexed-job.yaml")) << n;
        QTest::addRow("generated merge, %d shards", n)
            << QString::fromStdString(fileText(*files, "k8s-merge-job.yaml")) << 0;
    }
    ClusterJobOptions later = kubernetesOptions(5);
    later.startAt.clear();
    auto files = ClusterJobs::generate(later);
    QVERIFY(files);
    const std::string job = fileText(*files, "k8s-indexed-job.yaml");
    QVERIFY(job.find("@START_AT@") != std::string::npos);
    QTest::newRow("generated job, start at submission")
        << QString::fromStdString(job).replace(u"@START_AT@"_qs, u"2026-12-02T08:05:00Z"_qs) << 5;
}

void TestClusterJobs::manifestsMatchTheSchema()
{
    QFETCH(QString, yaml);
    QFETCH(int, shards);
    const QStringList p = problems(yaml.toStdString(), shards);
    QVERIFY2(p.isEmpty(), qPrintable(p.join(u'\n')));
}

// The check bites: each edit below is a mistake a hand edit could make.
void TestClusterJobs::brokenManifestsFail_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("expected");
    QTest::newRow("misspelt field") << u"  parallelism: 4"_qs << u"  paralelism: 4"_qs << u"paralelism"_qs;
    QTest::newRow("not indexed") << u"completionMode: Indexed"_qs << u"completionMode: indexed"_qs
                                 << u"/spec/completionMode"_qs;
    QTest::newRow("N disagrees") << u"completions: 4 #"_qs << u"completions: 5 #"_qs << u"expected 4 each"_qs;
    QTest::newRow("restart policy") << u"restartPolicy: Never"_qs << u"restartPolicy: Sometimes"_qs
                                    << u"restartPolicy"_qs;
    QTest::newRow("env as a map") << u"- name: SHARDS\n              value: \"4\" # N"_qs
                                  << u"- name: SHARDS\n              valu: \"4\" # N"_qs << u"valu"_qs;
}

void TestClusterJobs::brokenManifestsFail()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, expected);
    QString text = QString::fromUtf8(
        readFile(QStringLiteral(THROUGHLINE_SOURCE_DIR "/packaging/cluster/k8s-indexed-job.yaml")));
    text.replace(u"@START_AT@"_qs, u"2026-12-02T08:00:00Z"_qs)
        .replace(u"@POINT_SLOT_S@"_qs, u"90"_qs)
        .replace(u"@RUN@"_qs, u"r1"_qs);
    QVERIFY2(text.contains(from), qPrintable(from));
    text.replace(from, to);
    const QStringList p = problems(text.toStdString(), 4);
    QVERIFY2(!p.isEmpty(), "a broken manifest passed");
    QVERIFY2(p.join(u'\n').contains(expected), qPrintable(p.join(u'\n')));
}

void TestClusterJobs::generatedSlurmFiles()
{
    ClusterJobOptions o;
    o.shards = 3;
    o.pointSlotS = 45.5;
    o.campaignPath = "/shared/me/campaign.json";
    o.results = "/shared/me/run1";
    o.binDir = "/opt/throughline/bin";
    o.endpoint = "http://10.0.0.5:8000";
    o.sbatchOptions = "--partition=cpu --account=bench";
    auto files = ClusterJobs::generate(o);
    QVERIFY2(files, files ? "" : files.error().message.c_str());
    const std::string script = fileText(*files, "slurm-array.sbatch"),
                      submit = fileText(*files, "submit-slurm.sh");
    QVERIFY(script.find("#SBATCH --array=0-2\n") != std::string::npos);
    for (const char *line :
         {": \"${CAMPAIGN:=/shared/me/campaign.json}\"", ": \"${POINT_SLOT_S:=45.5}\"", ": \"${SHARDS:=3}\"",
          ": \"${ENDPOINT:=http://10.0.0.5:8000}\"", "export PATH=\"/opt/throughline/bin:$PATH\""})
        QVERIFY2(script.find(line) != std::string::npos, line);
    QVERIFY(submit.find("sbatch --parsable --partition=cpu --account=bench --export=ALL,START_AT=") !=
            std::string::npos);
    QVERIFY(submit.find("--dependency=afterany:\"$jid\"") != std::string::npos);
    QVERIFY(submit.find("/opt/throughline/bin/throughline-cli merge /shared/me/run1/shard-*/run.tlrun --out "
                        "/shared/me/run1/merged.tlrun") != std::string::npos);
    QVERIFY(submit.find("date -u -d '+5 min'") != std::string::npos);
    QTemporaryDir dir;
    for (const ClusterFile &f : *files) {
        QFile out(dir.filePath(QString::fromStdString(f.name)));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(f.text));
        out.close();
        QProcess sh;
        sh.start(u"/bin/bash"_qs, {u"-n"_qs, out.fileName()});
        QVERIFY(sh.waitForFinished(10000));
        QVERIFY2(sh.exitCode() == 0, qPrintable(QString::fromUtf8(sh.readAllStandardError())));
    }
    QCOMPARE(ClusterJobs::submitCommand(o, "/shared/me/job files"),
             std::string("sh '/shared/me/job files/submit-slurm.sh'"));
}

void TestClusterJobs::badOptionsNameTheField_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("expected");
    QTest::newRow("shards") << u"shards"_qs << u"shards: 1 is outside 2…4096"_qs;
    QTest::newRow("slot") << u"slot"_qs << u"point slot"_qs;
    QTest::newRow("start") << u"start"_qs << u"start time: expected ISO 8601"_qs;
    QTest::newRow("image") << u"image"_qs << u"image: needed"_qs;
    QTest::newRow("run") << u"run"_qs << u"run name: 'Run_1' must be a DNS label"_qs;
    QTest::newRow("results") << u"results"_qs << u"results folder: needed"_qs;
    QTest::newRow("sbatch") << u"sbatch"_qs << u"sbatch options: plain options only"_qs;
}

void TestClusterJobs::badOptionsNameTheField()
{
    QFETCH(QString, field);
    QFETCH(QString, expected);
    ClusterJobOptions o = kubernetesOptions(4);
    if (field == u"shards"_qs)
        o.shards = 1;
    else if (field == u"slot"_qs)
        o.pointSlotS = 0;
    else if (field == u"start"_qs)
        o.startAt = "tomorrow";
    else if (field == u"image"_qs)
        o.image.clear();
    else if (field == u"run"_qs)
        o.runName = "Run_1";
    else {
        o.scheduler = ClusterScheduler::Slurm;
        o.results = field == u"results"_qs ? "" : "/shared/run";
        o.sbatchOptions = field == u"sbatch"_qs ? "--x; rm -rf /" : "";
    }
    auto r = ClusterJobs::generate(o);
    QVERIFY(!r);
    QVERIFY2(QString::fromStdString(r.error().message).contains(expected), r.error().message.c_str());
}

void TestClusterJobs::planSplitsEveryPoint()
{
    Scenario closed;
    closed.id = "m/b/H200×1/Chat";
    closed.plan.concurrencies = {1, 4, 10};
    Scenario open;
    open.id = "m/b/H200×1/Summarization";
    open.plan.mode = LoadPlan::Mode::Open;
    open.plan.rates = {2, 8};
    auto plan = planClusterRun({closed, open}, 4);
    QVERIFY(plan);
    QCOMPARE(plan->slotCount(), 5);
    QCOMPARE(plan->rows[0].perShard, std::string("1, 0, 0, 0"));
    QCOMPARE(plan->rows[2].perShard, std::string("3, 3, 2, 2"));
    QCOMPARE(plan->rows[2].load, std::string("C=10"));
    QCOMPARE(plan->rows[4].slot, 4);
    QCOMPARE(plan->rows[4].perShard, std::string("2 req/s each"));
    QVERIFY(plan->simulatedScenarios.empty());
    Scenario simulated = closed;
    simulated.endpoint.kind = Endpoint::Kind::Simulated;
    QCOMPARE(planClusterRun({simulated}, 2)->simulatedScenarios, std::vector<std::string>{closed.id});
    Scenario search = closed;
    search.plan.mode = LoadPlan::Mode::Search;
    auto refused = planClusterRun({search}, 4);
    QVERIFY(!refused);
    QVERIFY(refused.error().message.find("search plan cannot be sharded") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestClusterJobs)
#include "tst_clusterjobs.moc"
