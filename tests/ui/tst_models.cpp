// Every ui model under QAbstractItemModelTester, with real data (catalog, demo expansion).
#include "guitestmain.h"

#include "common/demoscenario.h"
#include "ui/models/checkablelistmodel.h"
#include "ui/models/deploymenttablemodel.h"
#include "ui/models/problemlistmodel.h"
#include "ui/models/roles.h"
#include "ui/models/runpointsmodel.h"
#include "ui/models/runresultsmodel.h"
#include "ui/models/scenariotablemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

using namespace Throughline;

class TestModels : public QObject
{
    Q_OBJECT
private:
    static std::vector<Scenario> demoScenarios()
    {
        auto s = TestSupport::demoScenarios();
        if (!s)
            qFatal("demo campaign: %s", s.error().message.c_str());
        return *s;
    }

private slots:
    void checkableList()
    {
        CheckableListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy toggled(&model, &CheckableListModel::checkToggled);
        model.setItems({{QStringLiteral("a"), QStringLiteral("A"), {}, false, false},
                        {QStringLiteral("b"), QStringLiteral("B"), {}, true, true}});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.checkedIds(), QStringList{QStringLiteral("b")});
        QCOMPARE(model.index(1).data().toString(), QStringLiteral("B (custom)"));
        QVERIFY(model.setData(model.index(0), Qt::Checked, Qt::CheckStateRole));
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(toggled.at(0).at(0).toString(), QStringLiteral("a"));
        QVERIFY(toggled.at(0).at(1).toBool());
        // Same ids, changed check state: dataChanged, not a reset.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy dataChanged(&model, &QAbstractItemModel::dataChanged);
        model.setItems({{QStringLiteral("a"), QStringLiteral("A"), {}, true, false},
                        {QStringLiteral("b"), QStringLiteral("B"), {}, true, true}});
        QCOMPARE(reset.count(), 0);
        QCOMPARE(dataChanged.count(), 1);
        model.setItems({});
        QCOMPARE(model.rowCount(), 0);
    }

    void deploymentTable()
    {
        DeploymentTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Deployment d;
        d.gpu = "H200";
        d.gpus = 8;
        d.parallelism = "TP8";
        model.setDeployments({d});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, DeploymentTableModel::Gpus).data().toInt(), 8);
        QSignalSpy edited(&model, &DeploymentTableModel::deploymentEdited);
        QVERIFY(model.setData(model.index(0, DeploymentTableModel::PrefillGpus), 24));
        QVERIFY(model.setData(model.index(0, DeploymentTableModel::DecodeGpus), 8));
        QCOMPARE(edited.count(), 2);
        QCOMPARE(edited.at(0).at(1).value<Deployment>().prefillGpus, 24);
        QCOMPARE(edited.at(1).at(1).value<Deployment>().decodeGpus, 8);
        // The model reports edits only; it changes when the owner feeds the document's state back.
        QCOMPARE(model.deployments().front().prefillGpus, 0);
        QCOMPARE(DeploymentTableModel::label(d), QStringLiteral("H200×8 TP8 FP8"));
    }

    void scenarioTable()
    {
        ScenarioTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto scenarios = demoScenarios();
        model.setScenarios(scenarios);
        QCOMPARE(model.rowCount(), int(scenarios.size()));
        QCOMPARE(model.index(0, ScenarioTableModel::Id).data().toString(),
                 QString::fromStdString(scenarios[0].id));
        QCOMPARE(model.index(0, ScenarioTableModel::Isl).data(Roles::Sort).toInt(), scenarios[0].phase.isl);
        model.setScenarios({});
        QCOMPARE(model.rowCount(), 0);
    }

    void problemList()
    {
        ProblemListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProblems(
            {{"/plan/c_max", 3, 5, "must be ≥ c_min", false}, {"", 1, 1, "root problem", false}});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0).data(Roles::Pointer).toString(), QStringLiteral("/plan/c_max"));
        QCOMPARE(model.index(1).data(Roles::Pointer).toString(), QStringLiteral("/"));
        QVERIFY(model.index(0).data().toString().contains(QStringLiteral("must be")));
    }

    void runResults()
    {
        RunResultsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto scenarios = demoScenarios();
        model.setScenarios(scenarios, std::vector<int>(scenarios.size(), 3));
        QCOMPARE(model.rowCount(), int(scenarios.size()));
        QCOMPARE(model.index(0, RunResultsModel::VerdictCol).data(Roles::Verdict).toString(),
                 QStringLiteral("pending"));
        model.setState(0, RunResultsModel::State::Running);
        QCOMPARE(model.index(0, RunResultsModel::VerdictCol).data(Roles::Verdict).toString(),
                 QStringLiteral("running"));
        model.setLivePointsDone(0, 2);
        QCOMPARE(model.index(0, RunResultsModel::PointsCol).data().toString(), QStringLiteral("2 / 3"));
        PointResult p;
        p.load.concurrency = 4;
        p.metrics.outputTpsPerGpu = 1234.5;
        Verdict v;
        v.status = Verdict::Status::Pass;
        v.operatingPoint = 0;
        model.setResults(0, {p}, v);
        QCOMPARE(model.index(0, RunResultsModel::VerdictCol).data(Roles::Verdict).toString(),
                 QStringLiteral("pass"));
        QCOMPARE(model.index(0, RunResultsModel::OutputTpsGpuCol).data().toString(),
                 QStringLiteral("1234.5"));
        QCOMPARE(model.index(0, RunResultsModel::ValidityCol).data().toString(), QStringLiteral("valid"));
    }

    // Repeats as they come in: each repeat is a row named by its repeat; once a load has two, a metric
    // cell's tooltip carries the across-repeat interval over the repeats so far next to the run's own.
    void runPointsRepeats()
    {
        RunPointsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.reset({QStringLiteral("s")});
        auto repeat = [](int r, double tps) {
            PointResult p;
            p.load = {PointLoad::Mode::Concurrency, 16, 0, r};
            p.metrics.outputTpsPerGpu = tps;
            p.intervals.level = 0.95;
            Interval iv;
            iv.lower = tps - 2;
            iv.upper = tps + 2;
            iv.method = IntervalMethod::BlockBootstrap;
            p.intervals.set("output_tps_per_gpu", "value", iv);
            return p;
        };
        model.addPoint(0, 0, repeat(1, 100), false);
        QCOMPARE(model.index(0, RunPointsModel::LoadCol).data().toString(),
                 QStringLiteral("C=16 · repeat 1"));
        const QString once = model.index(0, RunPointsModel::OutputTpsGpuCol).data(Qt::ToolTipRole).toString();
        QVERIFY2(once.contains(QStringLiteral("This run: 95 % interval [98.00, 102.00]")), qPrintable(once));
        QVERIFY(!once.contains(QStringLiteral("Across")));
        model.addPoint(0, 1, repeat(2, 110), false);
        for (int row : {0, 1}) {
            const QString tip =
                model.index(row, RunPointsModel::OutputTpsGpuCol).data(Qt::ToolTipRole).toString();
            QVERIFY2(tip.contains(QStringLiteral("Across 2 repeats so far: mean 105.00")), qPrintable(tip));
        }
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestModels)
#include "tst_models.moc"
