// Drives the campaign designer the way a user does (keyboard on the checkable lists, typing into
// fields) and checks expansion, undo/redo, inline validation, the ± r % helper, "Test connection"
// against a real loopback server, and that save + reload gives the same campaign.
#include "guitestmain.h"

#include <utility>

#include "core/sim/simserver.h"
#include "ui/document/campaigndocument.h"
#include "ui/editors/endpointeditor.h"
#include "ui/editors/matrixeditor.h"
#include "ui/editors/phaseeditor.h"
#include "ui/models/checkablelistmodel.h"
#include "ui/models/problemlistmodel.h"
#include "ui/models/scenariotablemodel.h"
#include "ui/pages/designerpage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSignalSpy>
#include <QUndoStack>

using namespace Throughline;

class TestDesignerPage : public QObject
{
    Q_OBJECT
private:
    // One simulated endpoint, one H200×1 deployment, nothing else selected.
    static Campaign baseCampaign()
    {
        Campaign c;
        c.name = "designer test";
        Deployment d;
        d.gpu = "H200";
        d.gpus = 1;
        d.parallelism = "TP1";
        c.deployments.push_back(d);
        Endpoint e;
        e.name = "sim";
        e.kind = Endpoint::Kind::Simulated;
        c.endpoints.push_back(e);
        c.plan.concurrencies = {1, 4};
        return c;
    }

    // Toggles the entry `id` of a checkable list view with the keyboard (Space), as a user would.
    static void toggle(QListView *view, const QString &id)
    {
        auto *model = qobject_cast<CheckableListModel *>(view->model());
        QVERIFY(model);
        const int row = model->indexOf(id);
        QVERIFY2(row >= 0, qPrintable(id));
        view->setFocus();
        view->setCurrentIndex(model->index(row));
        QTest::keyClick(view, Qt::Key_Space);
    }

    static void typeInto(QLineEdit *edit, const QString &text)
    {
        edit->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, text);
        QTest::keyClick(edit, Qt::Key_Return);
    }

    template <typename T>
    static T *child(QWidget *parent, const char *name)
    {
        T *w = parent->findChild<T *>(QString::fromLatin1(name));
        if (!w)
            qFatal("no child %s", name);
        return w;
    }

    CampaignDocument *m_doc = nullptr;
    DesignerPage *m_page = nullptr;

private slots:
    void init()
    {
        m_doc = new CampaignDocument;
        m_doc->reset(baseCampaign(), {});
        m_page = new DesignerPage(m_doc);
        m_page->resize(1300, 800);
        m_page->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_page));
    }

    void cleanup()
    {
        delete m_page;
        delete m_doc;
    }

    void matrix2x2x1x2GivesEightScenarios()
    {
        QCOMPARE(m_page->scenarioCount(), 0);
        auto *models = child<QListView>(m_page, "modelsList");
        auto *backends = child<QListView>(m_page, "backendsList");
        auto *phases = child<QListView>(m_page, "phasesList");
        toggle(models, QStringLiteral("gpt-oss-20b"));
        toggle(models, QStringLiteral("gpt-oss-120b"));
        toggle(backends, QStringLiteral("vllm"));
        toggle(backends, QStringLiteral("sglang"));
        toggle(phases, QStringLiteral("Chat"));
        toggle(phases, QStringLiteral("Reasoning"));
        QCOMPARE(m_doc->campaign().models.size(), size_t(2));
        QCOMPARE(m_doc->campaign().backends.size(), size_t(2));
        QCOMPARE(m_doc->campaign().phases.size(), size_t(2));
        QTRY_COMPARE(m_page->scenarioCount(), 2 * 2 * 1 * 2);
        QVERIFY(m_page->scenarioCountLabel()->text().startsWith(QStringLiteral("8 scenario")));
        // Ids are unique and in matrix order (model-major).
        const auto &s = m_page->scenarioModel()->scenarios();
        QCOMPARE(QString::fromStdString(s.front().id), QStringLiteral("gpt-oss-20b/vllm/H200×1/Chat"));

        // An exclude rule typed by the user removes the matching cells.
        auto *exclude = child<QPlainTextEdit>(m_page, "excludeRules");
        QCOMPARE(m_page->matrixEditor()->setRules(false, QStringLiteral("backend=sglang,phase=Reasoning")),
                 QString());
        QTRY_COMPARE(m_page->scenarioCount(), 6);
        QCOMPARE(exclude->toPlainText(), QStringLiteral("backend=sglang,phase=Reasoning"));
        QVERIFY(!m_page->matrixEditor()->setRules(false, QStringLiteral("no-equals-sign")).isEmpty());
        QTRY_COMPARE(m_page->scenarioCount(), 6); // a bad rule changes nothing
    }

    void listsShowTheirEntriesWhole()
    {
        for (const char *name : {"modelsList", "backendsList", "phasesList"}) {
            auto *list = child<QListView>(m_page, name);
            QVERIFY2(list->sizeHintForColumn(0) <= list->viewport()->width(),
                     qPrintable(QStringLiteral("%1: entries need %2 px, %3 shown")
                                    .arg(QLatin1String(name))
                                    .arg(list->sizeHintForColumn(0))
                                    .arg(list->viewport()->width())));
        }
    }

    void undoRedo()
    {
        auto *models = child<QListView>(m_page, "modelsList");
        auto *backends = child<QListView>(m_page, "backendsList");
        auto *phases = child<QListView>(m_page, "phasesList");
        toggle(models, QStringLiteral("gpt-oss-20b"));
        toggle(backends, QStringLiteral("vllm"));
        toggle(phases, QStringLiteral("Chat"));
        toggle(phases, QStringLiteral("Generation"));
        QTRY_COMPARE(m_page->scenarioCount(), 2);
        QUndoStack *undo = m_doc->undoStack();
        QCOMPARE(undo->count(), 4);
        undo->undo();
        QTRY_COMPARE(m_page->scenarioCount(), 1);
        QCOMPARE(m_page->matrixEditor()->phasesModel()->checkedIds(), QStringList{QStringLiteral("Chat")});
        undo->undo();
        QTRY_COMPARE(m_page->scenarioCount(), 0);
        undo->redo();
        undo->redo();
        QTRY_COMPARE(m_page->scenarioCount(), 2);
        QCOMPARE(m_page->matrixEditor()->phasesModel()->checkedIds().size(), 2);
        undo->setIndex(0);
        QVERIFY(!m_doc->isModified());
        QCOMPARE(m_doc->campaign(), baseCampaign());
    }

    void validationErrorAppearsAndClears()
    {
        toggle(child<QListView>(m_page, "modelsList"), QStringLiteral("gpt-oss-20b"));
        toggle(child<QListView>(m_page, "backendsList"), QStringLiteral("vllm"));
        toggle(child<QListView>(m_page, "phasesList"), QStringLiteral("Chat"));
        m_page->revalidate();
        QCOMPARE(m_page->problemModel()->rowCount(), 0);

        auto *conc = child<QLineEdit>(m_page, "plan_concurrencies");
        typeInto(conc, QStringLiteral("   "));
        QVERIFY(m_doc->campaign().plan.concurrencies.empty());
        QTRY_VERIFY(m_page->problemModel()->rowCount() > 0);
        bool found = false;
        for (const auto &p : m_page->problemModel()->problems())
            found = found || p.pointer == "/plan/concurrencies";
        QVERIFY(found);
        // The field that edits /plan/concurrencies is marked and explains the problem.
        QCOMPARE(m_page->markedWidgetFor(QStringLiteral("/plan/concurrencies")), conc);
        QVERIFY(conc->property("invalid").toBool());
        QVERIFY(!conc->toolTip().isEmpty());

        typeInto(conc, QStringLiteral("1, 4, 16"));
        QCOMPARE(m_doc->campaign().plan.concurrencies, (std::vector<int>{1, 4, 16}));
        QTRY_COMPARE(m_page->problemModel()->rowCount(), 0);
        QVERIFY(!conc->property("invalid").toBool());
        QVERIFY(m_page->markedWidgets().isEmpty());

        // A literal secret in the API-key reference is refused by the validator and marked.
        m_page->endpointEditor()->setCurrentEndpoint(0);
        auto *key = child<QLineEdit>(m_page, "endpoint_api_key_env");
        typeInto(key, QStringLiteral("sk-abcdefghijklmnopqrstuvwxyz012345"));
        QTRY_VERIFY(m_page->markedWidgetFor(QStringLiteral("/endpoints/0/api_key_env")) == key);
        typeInto(key, QStringLiteral("OPENAI_API_KEY"));
        QTRY_COMPARE(m_page->problemModel()->rowCount(), 0);
    }

    void spreadHelper()
    {
        toggle(child<QListView>(m_page, "phasesList"), QStringLiteral("Chat"));
        m_page->phaseEditor()->selectPhase(QStringLiteral("Chat"));
        QCOMPARE(m_page->phaseEditor()->currentPhase(), 0);
        auto *spread = child<QSpinBox>(m_page, "phase_isl_spread");
        spread->setValue(25);
        QTest::mouseClick(child<QPushButton>(m_page, "phase_isl_apply_spread"), Qt::LeftButton);
        const Phase &p = m_doc->campaign().phases.front();
        QCOMPARE(p.islDist.kind, LengthDist::Kind::Uniform);
        QCOMPARE(p.islDist.min, 96);  // 128 × 0.75
        QCOMPARE(p.islDist.max, 160); // 128 × 1.25
        QCOMPARE(child<QComboBox>(m_page, "phase_isl_dist")->currentData().toInt(),
                 int(LengthDist::Kind::Uniform));
    }

    void testConnectionAgainstLoopbackServer()
    {
        auto opts = SimServer::optionsFromCatalog("gpt-oss-20b", "H200", 1, "FP8");
        QVERIFY(opts.ok());
        opts->timeScale = 50;
        SimServer server(*opts);
        auto port = server.start("127.0.0.1", 0);
        QVERIFY(port.ok());
        m_doc->edit(QStringLiteral("Add endpoint"), [&](Campaign &c) {
            Endpoint e;
            e.name = "local";
            e.baseUrl = "http://127.0.0.1:" + std::to_string(*port);
            c.endpoints.push_back(e);
        });
        EndpointEditor *ed = m_page->endpointEditor();
        ed->setCurrentEndpoint(1);
        QCOMPARE(child<QLineEdit>(m_page, "endpoint_base_url")->text(),
                 QString::fromStdString(m_doc->campaign().endpoints[1].baseUrl));
        QSignalSpy tested(ed, &EndpointEditor::connectionTested);
        QTest::mouseClick(child<QPushButton>(m_page, "testConnection"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 10000);
        QVERIFY2(tested.at(0).at(0).toBool(), qPrintable(tested.at(0).at(1).toString()));
        QVERIFY2(tested.at(0).at(1).toString().contains(QStringLiteral("gpt-oss-20b")),
                 qPrintable(tested.at(0).at(1).toString()));

        // A closed port reports the failure instead of hanging.
        server.stop();
        tested.clear();
        QTest::mouseClick(child<QPushButton>(m_page, "testConnection"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 15000);
        QVERIFY(!tested.at(0).at(0).toBool());
    }

    // Server timing: the combo sets the format (undoable), a file-less Dynamo trace is a marked problem
    // until the file is named, and the choice survives save and reload.
    void serverTimingFields()
    {
        toggle(child<QListView>(m_page, "modelsList"), QStringLiteral("gpt-oss-20b"));
        toggle(child<QListView>(m_page, "backendsList"), QStringLiteral("dynamo"));
        toggle(child<QListView>(m_page, "phasesList"), QStringLiteral("Chat"));
        m_page->endpointEditor()->setCurrentEndpoint(0);
        auto *format = child<QComboBox>(m_page, "endpoint_server_timing_format");
        QCOMPARE(format->currentIndex(), 0); // off
        const auto choose = [&](const QString &text) {
            format->setCurrentIndex(format->findText(text));
            emit format->activated(format->currentIndex());
        };
        choose(QStringLiteral("Dynamo request trace"));
        QCOMPARE(m_doc->campaign().endpoints.at(0).serverTiming.format, std::string("dynamo-trace"));
        m_page->revalidate();
        QTRY_VERIFY(m_page->markedWidgetFor(QStringLiteral("/endpoints/0/server_timing/file")) ==
                    child<QLineEdit>(m_page, "endpoint_server_timing_file"));
        typeInto(child<QLineEdit>(m_page, "endpoint_server_timing_file"), QStringLiteral("/tmp/trace.jsonl"));
        QTRY_COMPARE(m_page->problemModel()->rowCount(), 0);
        choose(QStringLiteral("As the backend preset publishes it"));
        QCOMPARE(m_doc->campaign().endpoints.at(0).serverTiming.format, std::string("auto"));
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->campaign().endpoints.at(0).serverTiming.format, std::string("dynamo-trace"));
        QCOMPARE(format->currentText(), QStringLiteral("Dynamo request trace"));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("timed.json"));
        QVERIFY(m_doc->save(path).ok());
        CampaignDocument reloaded;
        QVERIFY(reloaded.load(path).ok());
        QCOMPARE(reloaded.campaign().endpoints.at(0).serverTiming.file, std::string("/tmp/trace.jsonl"));
        QCOMPARE(reloaded.campaign(), m_doc->campaign());
    }

    void saveAndReloadGivesSameCampaign()
    {
        toggle(child<QListView>(m_page, "modelsList"), QStringLiteral("gpt-oss-120b"));
        toggle(child<QListView>(m_page, "backendsList"), QStringLiteral("trtllm"));
        toggle(child<QListView>(m_page, "phasesList"), QStringLiteral("Summarization"));
        m_page->matrixEditor()->addDeployment(QStringLiteral("B200"), 8);
        m_page->matrixEditor()->addCustomPhase(QStringLiteral("Long"), 4000, 700);
        typeInto(child<QLineEdit>(m_page, "plan_concurrencies"), QStringLiteral("2 8 32"));
        auto *mode = child<QComboBox>(m_page, "planMode");
        mode->setCurrentIndex(mode->findData(int(LoadPlan::Mode::Curve)));
        emit mode->activated(mode->currentIndex());
        QCOMPARE(m_doc->campaign().plan.mode, LoadPlan::Mode::Curve);
        QTRY_COMPARE(m_page->scenarioCount(), 1 * 1 * 2 * 2);
        // Engine read order: on by default, one click turns it off (an undoable edit), with its trade-off
        // explained on the checkbox.
        auto *priority = child<QCheckBox>(m_page, "plan_first_token_priority");
        QVERIFY(priority->isChecked());
        QVERIFY(priority->toolTip().contains(QStringLiteral("TTFT")));
        priority->click();
        QVERIFY(!m_doc->campaign().plan.firstTokenPriority);
        m_doc->undoStack()->undo();
        QVERIFY(m_doc->campaign().plan.firstTokenPriority);
        QVERIFY(priority->isChecked());
        m_doc->undoStack()->redo();
        QVERIFY(!priority->isChecked());

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("designed.json"));
        QVERIFY(m_doc->save(path).ok());
        CampaignDocument reloaded;
        const Status st = reloaded.load(path);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
        QCOMPARE(reloaded.campaign(), m_doc->campaign());
        QVERIFY(!reloaded.campaign().plan.firstTokenPriority);
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestDesignerPage)
#include "tst_designerpage.moc"
