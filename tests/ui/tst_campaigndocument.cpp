// CampaignDocument + ChangeCampaign: every edit is an undoable command, merging, aspects, file I/O.
#include "guitestmain.h"

#include "core/campaign/campaignjson.h"
#include "ui/document/campaigndocument.h"

#include <QSignalSpy>
#include <QUndoStack>

using namespace Throughline;

class TestCampaignDocument : public QObject
{
    Q_OBJECT
private slots:
    void editPushesUndoCommand()
    {
        CampaignDocument doc;
        QSignalSpy changed(&doc, &CampaignDocument::changed);
        QSignalSpy modified(&doc, &CampaignDocument::modifiedChanged);
        QVERIFY(
            doc.edit(QStringLiteral("Add model"), [](Campaign &c) { c.models.push_back("gpt-oss-20b"); }));
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.campaign().models, std::vector<std::string>{"gpt-oss-20b"});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).value<CampaignDocument::Aspects>(),
                 CampaignDocument::Aspects(CampaignDocument::Matrix));
        QVERIFY(doc.isModified());
        QCOMPARE(modified.count(), 1);

        doc.undoStack()->undo();
        QVERIFY(doc.campaign().models.empty());
        QVERIFY(!doc.isModified());
        doc.undoStack()->redo();
        QCOMPARE(doc.campaign().models.size(), size_t(1));
    }

    void noOpEditPushesNothing()
    {
        CampaignDocument doc;
        QVERIFY(!doc.edit(QStringLiteral("Nothing"), [](Campaign &) {}));
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void mergeKeyCollapsesTyping()
    {
        CampaignDocument doc;
        for (int c : {2, 3, 4})
            doc.edit(
                QStringLiteral("Edit C max"), [c](Campaign &cp) { cp.plan.cMax = c; },
                QStringLiteral("/plan/c_max"));
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.campaign().plan.cMax, 4);
        doc.edit(
            QStringLiteral("Edit C min"), [](Campaign &cp) { cp.plan.cMin = 2; },
            QStringLiteral("/plan/c_min"));
        QCOMPARE(doc.undoStack()->count(), 2);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(doc.campaign().plan.cMax, LoadPlan{}.cMax);
        // Typing a value and typing the original back leaves nothing to undo.
        doc.edit(
            QStringLiteral("x"), [](Campaign &cp) { cp.plan.cMax = 7; }, QStringLiteral("/plan/c_max"));
        doc.edit(
            QStringLiteral("x"), [](Campaign &cp) { cp.plan.cMax = LoadPlan{}.cMax; },
            QStringLiteral("/plan/c_max"));
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void diffNamesAspects()
    {
        Campaign a, b;
        QCOMPARE(CampaignDocument::diff(a, b), CampaignDocument::Aspects());
        b.plan.cMax = 9;
        b.slos["*"] = Slo{100, 10, 0, 90};
        QCOMPARE(CampaignDocument::diff(a, b), CampaignDocument::Plan | CampaignDocument::Slos);
    }

    void saveAndLoadRoundTrip()
    {
        QTemporaryDir dir;
        CampaignDocument doc;
        QVERIFY(doc.load(QStringLiteral(":/campaigns/demo.json")).ok());
        QVERIFY(doc.needsSaveAs());
        doc.edit(QStringLiteral("Rename"), [](Campaign &c) { c.name = "Round trip"; });
        const QString path = dir.filePath(QStringLiteral("c.json"));
        QVERIFY(doc.save(path).ok());
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.filePath(), path);
        CampaignDocument other;
        const Status st = other.load(path);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
        QCOMPARE(other.campaign(), doc.campaign());
        QCOMPARE(other.undoStack()->count(), 0);
    }

    void loadErrorNamesFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ \"schema\": \"throughline.campaign/1\", \"name\": ");
        f.close();
        CampaignDocument doc;
        const Status st = doc.load(path);
        QVERIFY(!st.ok());
        QVERIFY2(QString::fromStdString(st.error().message).contains(path), st.error().message.c_str());
    }
};

THROUGHLINE_GUI_TEST_MAIN(TestCampaignDocument)
#include "tst_campaigndocument.moc"
