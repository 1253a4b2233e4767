#pragma once
// The application's main window: navigation between the pages, menus and shortcuts, the document's
// file life cycle (new / open / save / save-as / recent / drag & drop / unsaved-changes prompt),
// the status bar (history database, engine state) and the window state kept in typed settings.
// The pages do the work; this class only wires them. Lives in the GUI thread.

#include <QMainWindow>

class QAction;
class QLabel;
class QListWidget;
class QMenu;
class QStackedWidget;

namespace Throughline {

class CampaignDocument;
class DesignerPage;
class HistoryPage;
class PlanPage;
class Preferences;
class RunPage;
class TargetsPage;
class ThemeController;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Page { DesignPage, RunMonitorPage, HistoryPage, TargetsPage, PlanPage, PageCount };
    Q_ENUM(Page)

    struct Options {
        QString databasePath; // shown in the status bar; passed to the run page
        QString campaignFile; // open this instead of the last / demo campaign
        bool restoreState = true;
    };

    explicit MainWindow(const Options &options, QWidget *parent = nullptr);
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    CampaignDocument *document() const { return m_document; }
    DesignerPage *designerPage() const { return m_designer; }
    RunPage *runPage() const { return m_run; }
    // `Throughline::` because the Page enumerator HistoryPage hides the class name in this scope.
    Throughline::HistoryPage *historyPage() const { return m_history; }
    Throughline::TargetsPage *targetsPage() const { return m_targets; }
    Throughline::PlanPage *planPage() const { return m_plan; }
    Preferences *preferences() const { return m_prefs; }
    ThemeController *themeController() const { return m_theme; }
    Page currentPage() const;

    static QString demoCampaignPath() { return QStringLiteral(":/campaigns/demo.json"); }

public slots:
    void setCurrentPage(Throughline::MainWindow::Page page);
    void newCampaign();
    bool openCampaign(const QString &path); // shows an error box on failure
    void openDialog();
    bool save();
    bool saveAs(const QString &path = {}); // empty: ask with a file dialog

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createPages();
    void createActions();
    void updateTitle();
    void updateRecentMenu();
    void restoreWindowState();
    bool maybeSave(); // false = the user cancelled

    Options m_options;
    Preferences *m_prefs;
    ThemeController *m_theme;
    CampaignDocument *m_document;
    QListWidget *m_nav = nullptr;
    QStackedWidget *m_stack = nullptr;
    DesignerPage *m_designer = nullptr;
    RunPage *m_run = nullptr;
    Throughline::HistoryPage *m_history = nullptr;
    Throughline::TargetsPage *m_targets = nullptr;
    Throughline::PlanPage *m_plan = nullptr;
    QMenu *m_recentMenu = nullptr;
    QLabel *m_dbLabel = nullptr;
    QLabel *m_engineLabel = nullptr;
};

} // namespace Throughline
