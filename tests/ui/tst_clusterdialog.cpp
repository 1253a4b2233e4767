// Run ▸ Run on a Cluster… (ui/run/clusterdialog.h), offscreen: the plan of the demo campaign split over N
// shards, files written for Slurm and Kubernetes with the entered values, refusals (unsaved campaign, bad
// field) shown in the dialog, and the German catalogue on it. Screenshot: clusterdialog[-de].png in the
// test's temporary folder when THROUGHLINE_SCREENSHOT_DIR is set.
#include "guitestmain.h"

#include "core/campaign/campaignjson.h"
#include "ui/document/campaigndocument.h"
#include "ui/history/pointstablemodel.h"
#include "ui/mainwindow.h"
#include "ui/run/clusterdialog.h"
#include "ui/settings/translationloader.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>

using namespace Throughline;

class TestClusterDialog : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void planFollowsTheShardCount();
    void writesSlurmFiles();
    void writesKubernetesFiles();
    void refusesUnsavedCampaignAndBadFields();
    void runMenuOpensTheDialog();
    void historyShowsShardSkewAndLateShards();
    void germanDialog(); // last: installs the German catalogue

private:
    template <typename T>
    static T *child(QWidget *w, const char *name)
    {
        T *c = w->findChild<T *>(QLatin1String(name));
        if (!c)
            qFatal("no child %s", name);
        return c;
    }
    QString text(const QString &path);
    void screenshot(QWidget *w, const QString &name);
    QTemporaryDir m_dir;
    CampaignDocument m_doc;
    QString m_campaign;
};

QString TestClusterDialog::text(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void TestClusterDialog::screenshot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("THROUGHLINE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(w->grab().save(dir + u'/' + name));
}

void TestClusterDialog::initTestCase()
{
    // The demo campaign saved as a file (the shards read the saved file).
    QFile demo(u":/campaigns/demo.json"_qs);
    QVERIFY(demo.open(QIODevice::ReadOnly));
    m_campaign = m_dir.filePath(u"demo.json"_qs);
    QFile out(m_campaign);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(demo.readAll());
    out.close();
    const Status s = m_doc.load(m_campaign);
    QVERIFY2(s, s ? "" : s.error().message.c_str());
}

void TestClusterDialog::planFollowsTheShardCount()
{
    ClusterDialog d(&m_doc);
    d.show();
    auto *plan = child<QTreeWidget>(&d, "clusterPlan");
    // Demo: two phases × its concurrencies, one slot per point; each point's shares split its C.
    const std::vector<int> cs = m_doc.campaign().plan.concurrencies;
    const int slotRows = 2 * static_cast<int>(cs.size());
    QCOMPARE(plan->topLevelItemCount(), slotRows);
    const auto shares = [&](int row, int shards) {
        int sum = 0;
        for (const QString &v : plan->topLevelItem(row)->text(4).split(u", "_qs))
            sum += v.toInt();
        return std::pair{sum, plan->topLevelItem(row)->text(4).count(u',') + 1 == shards};
    };
    for (int row = 0; row < slotRows; ++row) {
        const int c = cs[static_cast<std::size_t>(row) % cs.size()];
        QCOMPARE(plan->topLevelItem(row)->text(3), u"C="_qs + QString::number(c));
        QCOMPARE(shares(row, 4), std::pair(c, true));
    }
    child<QSpinBox>(&d, "shards")->setValue(3);
    QCOMPARE(shares(slotRows - 1, 3), std::pair(cs.back(), true));
    QCOMPARE(plan->topLevelItem(slotRows - 1)->text(0), QString::number(slotRows - 1));
    screenshot(&d, u"clusterdialog.png"_qs);
}

void TestClusterDialog::writesSlurmFiles()
{
    ClusterDialog d(&m_doc);
    child<QSpinBox>(&d, "shards")->setValue(8);
    child<QDoubleSpinBox>(&d, "pointSlot")->setValue(45);
    child<QLineEdit>(&d, "endpoint")->setText(u"http://10.0.0.7:8000"_qs);
    child<QLineEdit>(&d, "results")->setText(u"/shared/bench/run1"_qs);
    child<QLineEdit>(&d, "sbatchOptions")->setText(u"--partition=cpu"_qs);
    const QString out = m_dir.filePath(u"slurm"_qs);
    child<QLineEdit>(&d, "outputFolder")->setText(out);
    child<QPushButton>(&d, "writeClusterFiles")->click();
    const QString message = child<QLabel>(&d, "clusterMessage")->text();
    QVERIFY2(message.contains(u"sh '"_qs + out + u"/submit-slurm.sh'"_qs), qPrintable(message));
    const QString script = text(out + u"/slurm-array.sbatch"_qs);
    QVERIFY(script.contains(u"#SBATCH --array=0-7\n"_qs));
    QVERIFY(script.contains(u": \"${CAMPAIGN:="_qs + m_campaign + u"}\""_qs));
    QVERIFY(script.contains(u": \"${POINT_SLOT_S:=45}\""_qs));
    QVERIFY(script.contains(u": \"${ENDPOINT:=http://10.0.0.7:8000}\""_qs));
    QVERIFY(text(out + u"/submit-slurm.sh"_qs).contains(u"sbatch --parsable --partition=cpu"_qs));
    QVERIFY(QFileInfo(out + u"/submit-slurm.sh"_qs).isExecutable());
}

void TestClusterDialog::writesKubernetesFiles()
{
    ClusterDialog d(&m_doc);
    child<QComboBox>(&d, "scheduler")->setCurrentIndex(1);
    child<QSpinBox>(&d, "shards")->setValue(6);
    child<QLineEdit>(&d, "image")->setText(u"ghcr.io/me/throughline-cli:0.1.0"_qs);
    child<QLineEdit>(&d, "runName")->setText(u"h200-chat"_qs);
    const QString out = m_dir.filePath(u"k8s"_qs);
    child<QLineEdit>(&d, "outputFolder")->setText(out);
    QVERIFY(d.writeFiles());
    const QString job = text(out + u"/k8s-indexed-job.yaml"_qs);
    QVERIFY(job.contains(u"completions: 6 #"_qs) && job.contains(u"parallelism: 6 #"_qs));
    QVERIFY(job.contains(u"value: \"6\" # N"_qs));
    QVERIFY(job.contains(u"image: ghcr.io/me/throughline-cli:0.1.0"_qs));
    QVERIFY(job.contains(u"value: \"h200-chat\""_qs));
    QVERIFY(text(out + u"/k8s-merge-job.yaml"_qs).contains(u"image: ghcr.io/me/throughline-cli:0.1.0"_qs));
    QVERIFY(text(out + u"/submit-kubernetes.sh"_qs).contains(u"--from-file=campaign.json='"_qs + m_campaign));
}

void TestClusterDialog::refusesUnsavedCampaignAndBadFields()
{
    {
        ClusterDialog d(&m_doc);
        child<QComboBox>(&d, "scheduler")->setCurrentIndex(1);
        child<QLineEdit>(&d, "runName")->setText(u"Not_A_Label"_qs);
        child<QLineEdit>(&d, "outputFolder")->setText(m_dir.filePath(u"bad"_qs));
        QVERIFY(!d.writeFiles());
        QVERIFY2(child<QLabel>(&d, "clusterMessage")->text().contains(u"run name: 'Not_A_Label'"_qs),
                 qPrintable(child<QLabel>(&d, "clusterMessage")->text()));
        QVERIFY(!QFile::exists(m_dir.filePath(u"bad"_qs)));
    }
    CampaignDocument unsaved;
    unsaved.reset(m_doc.campaign(), {});
    ClusterDialog d(&unsaved);
    child<QLineEdit>(&d, "outputFolder")->setText(m_dir.filePath(u"unsaved"_qs));
    child<QLineEdit>(&d, "results")->setText(u"/shared/x"_qs);
    QVERIFY(!d.writeFiles());
    QVERIFY(child<QLabel>(&d, "clusterMessage")->text().contains(u"Save the campaign first"_qs));
}

void TestClusterDialog::germanDialog()
{
    QVERIFY(TranslationLoader::install(qApp, u"de"_qs));
    {
        ClusterDialog d(&m_doc);
        d.show();
        QCOMPARE(d.windowTitle(), u"Auf einem Cluster ausführen"_qs);
        QCOMPARE(child<QPushButton>(&d, "writeClusterFiles")->text(), u"Dateien schreiben"_qs);
        QCOMPARE(child<QTreeWidget>(&d, "clusterPlan")->headerItem()->text(4), u"Pro Shard"_qs);
        screenshot(&d, u"clusterdialog-de.png"_qs);
        child<QLineEdit>(&d, "outputFolder")->setText(QString());
        QVERIFY(!d.writeFiles());
        QCOMPARE(child<QLabel>(&d, "clusterMessage")->text(), u"Wählen Sie einen Ordner für die Dateien."_qs);
    }
    PointRow late;
    late.aggregates = {{"merge", {{"shards", 4}, {"skew_ms", 9734.2}, {"late_shards", {"2/4"}}}}};
    PointsTableModel model;
    model.setRows({late});
    QCOMPARE(model.index(0, model.columnCount() - 1).data().toString(),
             u"4 Shards, Versatz 9734.2 ms; verspätet: 2/4"_qs);
    QVERIFY(TranslationLoader::install(qApp, u"en"_qs));
}

// Run ▸ Run on a Cluster… opens the dialog on the window's campaign.
void TestClusterDialog::runMenuOpensTheDialog()
{
    MainWindow w(MainWindow::Options{m_dir.filePath(u"h.sqlite"_qs), m_campaign, false});
    w.show();
    auto *action = w.findChild<QAction *>(u"runOnCluster"_qs);
    QVERIFY(action);
    int rows = -1;
    QTimer::singleShot(0, &w, [&] {
        auto *d = qobject_cast<ClusterDialog *>(QApplication::activeModalWidget());
        if (d) {
            rows = d->findChild<QTreeWidget *>(u"clusterPlan"_qs)->topLevelItemCount();
            d->reject();
        }
    });
    action->trigger();
    QCOMPARE(rows, 2 * static_cast<int>(m_doc.campaign().plan.concurrencies.size()));
}

// History's points table of an imported merged bundle: the shard count, start skew, late shards and (a
// partial merge, --allow-missing) missing shards of each point (results.json "merge", written by
// core/storage/bundlemerger); empty for unsharded points.
void TestClusterDialog::historyShowsShardSkewAndLateShards()
{
    PointRow merged, late, plain, partial;
    merged.aggregates = {
        {"merge", {{"shards", 4}, {"skew_ms", 5.62}, {"late_shards", nlohmann::json::array()}}}};
    late.aggregates = {{"merge", {{"shards", 4}, {"skew_ms", 9734.2}, {"late_shards", {"2/4"}}}}};
    plain.aggregates = {{"metrics", nlohmann::json::object()}};
    partial.aggregates = {{"merge",
                           {{"shards", 3},
                            {"skew_ms", 4.0},
                            {"late_shards", nlohmann::json::array()},
                            {"missing_shards", {"2/4"}}}}};
    PointsTableModel model;
    model.setRows({merged, late, plain, partial});
    int col = -1;
    for (int c = 0; c < model.columnCount(); ++c)
        if (model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == u"Shards"_qs)
            col = c;
    QVERIFY(col >= 0);
    QCOMPARE(model.index(0, col).data().toString(), u"4 shard(s), skew 5.6 ms"_qs);
    QCOMPARE(model.index(1, col).data().toString(), u"4 shard(s), skew 9734.2 ms; late: 2/4"_qs);
    QCOMPARE(model.index(2, col).data().toString(), QString());
    QCOMPARE(model.index(3, col).data().toString(), u"3 shard(s), skew 4.0 ms; missing: 2/4"_qs);
}

THROUGHLINE_GUI_TEST_MAIN(TestClusterDialog)
#include "tst_clusterdialog.moc"
