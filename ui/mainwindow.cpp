#include "ui/mainwindow.h"

#include "ui/document/campaigndocument.h"
#include "ui/history/historypage.h"
#include "ui/history/historyservice.h"
#include "ui/pages/designerpage.h"
#include "ui/pages/planpage.h"
#include "ui/pages/runpage.h"
#include "ui/run/clusterdialog.h"
#include "ui/settings/preferences.h"
#include "ui/settings/themecontroller.h"
#include "ui/targets/targetspage.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QRegularExpression>
#include <QUndoStack>

namespace Throughline {

MainWindow::MainWindow(QWidget *parent)
    : MainWindow(Options{}, parent)
{
}

MainWindow::MainWindow(const Options &options, QWidget *parent)
    : QMainWindow(parent)
    , m_options(options)
    , m_prefs(new Preferences(this))
    , m_theme(new ThemeController(m_prefs, this))
    , m_document(new CampaignDocument(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    resize(1360, 860);
    createPages();
    createActions();

    m_dbLabel = new QLabel(this);
    m_dbLabel->setText(tr("History: %1").arg(QDir::toNativeSeparators(m_options.databasePath)));
    m_dbLabel->setToolTip(tr("History database (override with --db or THROUGHLINE_DB)"));
    m_engineLabel = new QLabel(tr("Engine: idle"), this);
    statusBar()->addWidget(m_dbLabel, 1);
    statusBar()->addPermanentWidget(m_engineLabel);
    connect(m_run, &RunPage::engineStateChanged, this,
            [this](const QString &state) { m_engineLabel->setText(tr("Engine: %1").arg(state)); });

    connect(m_document, &CampaignDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &CampaignDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &CampaignDocument::changed, this, &MainWindow::updateTitle);

    // First launch: the demo campaign on the simulated endpoint, ready to run with one click.
    QString initial = m_options.campaignFile;
    if (initial.isEmpty() && m_prefs->launchedBefore()) {
        const QString last = m_prefs->lastCampaign();
        if (!last.isEmpty() && QFileInfo::exists(last))
            initial = last;
    }
    if (initial.isEmpty())
        initial = demoCampaignPath();
    if (!openCampaign(initial) && initial != demoCampaignPath())
        openCampaign(demoCampaignPath());
    m_prefs->setLaunchedBefore(true);

    if (m_options.restoreState)
        restoreWindowState();
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createPages()
{
    m_designer = new DesignerPage(m_document, this);
    m_run = new RunPage(m_document, m_theme, m_options.databasePath, this);

    m_nav = new QListWidget(this);
    m_nav->setObjectName(QStringLiteral("navigation"));
    m_nav->setViewMode(QListView::IconMode);
    m_nav->setFlow(QListView::TopToBottom);
    m_nav->setMovement(QListView::Static);
    m_nav->setIconSize(QSize(28, 28));
    m_nav->setGridSize(QSize(84, 64));
    m_nav->setFixedWidth(92);
    m_nav->setFrameShape(QFrame::NoFrame);
    const struct {
        QStyle::StandardPixmap icon;
        QString label;
        QString tip;
    } entries[] = {
        {QStyle::SP_FileDialogDetailedView, tr("Design"), tr("Compose the campaign matrix (Ctrl+1)")},
        {QStyle::SP_MediaPlay, tr("Run"), tr("Run the campaign and watch it live (Ctrl+2)")},
        {QStyle::SP_FileDialogContentsView, tr("History"), tr("Stored runs (Ctrl+3)")},
        {QStyle::SP_DialogApplyButton, tr("Targets"), tr("Target tables and verdicts (Ctrl+4)")},
        {QStyle::SP_FileDialogInfoView, tr("Plan"), tr("GPUs, dollars and energy at an SLO (Ctrl+5)")},
    };
    for (const auto &e : entries) {
        auto *item = new QListWidgetItem(style()->standardIcon(e.icon), e.label, m_nav);
        item->setToolTip(e.tip);
        item->setTextAlignment(Qt::AlignHCenter);
    }

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_designer);
    m_stack->addWidget(m_run);
    // GUI runs are recorded in the same database; the list re-reads it when one was stored.
    // Every History read (list, detail, curves, compare, report data) runs on the service's worker thread.
    m_history = new Throughline::HistoryPage(m_options.databasePath, new HistoryService(this), this);
    m_stack->addWidget(m_history);
    // The Targets page judges the run chosen in History, and the newest run after one is recorded.
    m_targets = new Throughline::TargetsPage(m_options.databasePath, m_document, this);
    m_stack->addWidget(m_targets);
    // Plan sizes the deployments of stored runs; opened without ticked runs it takes History's selection.
    m_plan = new Throughline::PlanPage(m_options.databasePath, this);
    m_stack->addWidget(m_plan);
    connect(m_run, &RunPage::runRecorded, this, [this] {
        auto showError = [this](const Status &st) {
            if (!st)
                statusBar()->showMessage(QString::fromStdString(st.error().message), 5000);
        };
        showError(m_targets->reloadRuns(true));
        showError(m_plan->reloadRuns());
        m_history->reloadInBackground(true);
    });
    connect(m_history, &Throughline::HistoryPage::statusMessage, this,
            [this](const QString &message) { statusBar()->showMessage(message, 5000); });
    connect(m_history, &Throughline::HistoryPage::runShown, m_targets, [this](const QString &uuid) {
        if (auto st = m_targets->showRunMatrix(uuid); !st)
            statusBar()->showMessage(QString::fromStdString(st.error().message), 5000);
    });
    connect(m_plan, &Throughline::PlanPage::statusMessage, this,
            [this](const QString &message) { statusBar()->showMessage(message, 5000); });
    connect(
        m_plan, &Throughline::PlanPage::pointActivated, this, [this](const QString &uuid, qint64 pointId) {
            setCurrentPage(HistoryPage);
            if (m_history->selectRun(uuid) || m_history->showRun(uuid))
                statusBar()->showMessage(tr("Run %1, stored point %2").arg(uuid.left(8)).arg(pointId), 5000);
        });
    connect(m_nav, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);
    connect(m_nav, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row != PlanPage || !m_plan->checkedRuns().isEmpty())
            return;
        if (auto st = m_plan->reloadRuns(); !st)
            statusBar()->showMessage(QString::fromStdString(st.error().message), 5000);
        m_plan->setCheckedRuns(m_history->selectedRuns());
    });
    connect(m_run, &RunPage::runStarted, this, [this] { setCurrentPage(RunMonitorPage); });

    auto *central = new QWidget(this);
    auto *layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_nav);
    layout->addWidget(m_stack, 1);
    setCentralWidget(central);
    m_nav->setCurrentRow(0);
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    auto *newAct = file->addAction(tr("&New Campaign"), this, &MainWindow::newCampaign);
    newAct->setShortcut(QKeySequence::New);
    auto *openAct = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this,
                                    &MainWindow::openDialog);
    openAct->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("Open &Demo Campaign"), this, [this] {
        if (maybeSave())
            openCampaign(demoCampaignPath());
    });
    file->addSeparator();
    auto *saveAct = file->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this,
                                    &MainWindow::save);
    saveAct->setShortcut(QKeySequence::Save);
    auto *saveAsAct = file->addAction(tr("Save &As…"), this, [this] { saveAs(); });
    saveAsAct->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    auto *quitAct = file->addAction(tr("&Quit"), this, &QWidget::close);
    quitAct->setShortcut(QKeySequence::Quit);
    quitAct->setMenuRole(QAction::QuitRole);
    connect(m_prefs, &Preferences::recentFilesChanged, this, &MainWindow::updateRecentMenu);
    updateRecentMenu();

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    const QString pageNames[] = {tr("&Design"), tr("&Run"), tr("&History"), tr("&Targets"), tr("&Plan")};
    for (int i = 0; i < PageCount; ++i) {
        QAction *a = view->addAction(pageNames[i], this, [this, i] { setCurrentPage(Page(i)); });
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
    view->addSeparator();
    QMenu *themeMenu = view->addMenu(tr("&Appearance"));
    auto *group = new QActionGroup(this);
    const struct {
        Preferences::Theme theme;
        QString label;
    } themes[] = {
        {Preferences::Theme::System, tr("Follow &System")},
        {Preferences::Theme::Light, tr("&Light")},
        {Preferences::Theme::Dark, tr("&Dark")},
    };
    for (const auto &t : themes) {
        QAction *a = themeMenu->addAction(t.label);
        a->setCheckable(true);
        a->setChecked(m_prefs->theme() == t.theme);
        a->setActionGroup(group);
        const auto theme = t.theme;
        connect(a, &QAction::triggered, this, [this, theme] { m_prefs->setTheme(theme); });
    }

    // Translators are installed once in main(): a new language applies after a restart, as the menu says.
    QMenu *languageMenu = view->addMenu(tr("&Language"));
    auto *languageGroup = new QActionGroup(this);
    const struct {
        QString key;
        QString label;
    } languages[] = {
        {QStringLiteral("system"), tr("&System Language")},
        {QStringLiteral("en"), QStringLiteral("English")}, // language names stay in their own language
        {QStringLiteral("de"), QStringLiteral("Deutsch")},
    };
    for (const auto &l : languages) {
        QAction *a = languageMenu->addAction(l.label);
        a->setCheckable(true);
        a->setChecked(m_prefs->language() == l.key);
        a->setActionGroup(languageGroup);
        const QString key = l.key;
        connect(a, &QAction::triggered, this, [this, key] {
            m_prefs->setLanguage(key);
            statusBar()->showMessage(tr("The new language applies after Throughline restarts."), 8000);
        });
    }
    languageMenu->addSeparator();
    languageMenu->addAction(tr("Applies after a restart"))->setEnabled(false);

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addActions(m_run->runActions());
    run->addSeparator();
    QAction *cluster =
        run->addAction(tr("Run on a &Cluster…"), this, [this] { ClusterDialog(m_document, this).exec(); });
    cluster->setObjectName(QStringLiteral("runOnCluster"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Throughline"), this, [this] {
        QMessageBox::about(this, tr("About Throughline"),
                           tr("<b>Throughline</b> %1<br>A workbench for LLM-inference benchmark campaigns.")
                               .arg(QApplication::applicationVersion()));
    });
}

MainWindow::Page MainWindow::currentPage() const
{
    return Page(m_stack->currentIndex());
}

void MainWindow::setCurrentPage(Page page)
{
    m_nav->setCurrentRow(int(page));
}

void MainWindow::updateTitle()
{
    setWindowModified(m_document->isModified());
    setWindowTitle(tr("%1[*] — Throughline").arg(m_document->displayName()));
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_prefs->recentFiles();
    for (const QString &f : files) {
        m_recentMenu->addAction(QDir::toNativeSeparators(f), this, [this, f] {
            if (maybeSave())
                openCampaign(f);
        });
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), m_prefs, &Preferences::clearRecentFiles);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::restoreWindowState()
{
    const QByteArray geometry = m_prefs->windowGeometry();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = m_prefs->windowState();
    if (!state.isEmpty())
        restoreState(state);
    setCurrentPage(Page(qBound(0, m_prefs->currentPage(), int(PageCount) - 1)));
}

void MainWindow::newCampaign()
{
    if (!maybeSave())
        return;
    Campaign c;
    c.name = tr("New campaign").toStdString();
    Endpoint sim;
    sim.name = "sim";
    sim.kind = Endpoint::Kind::Simulated;
    c.endpoints.push_back(sim);
    m_document->reset(c, {});
    setCurrentPage(DesignPage);
}

bool MainWindow::openCampaign(const QString &path)
{
    if (const Status st = m_document->load(path); !st) {
        QMessageBox::warning(this, tr("Cannot open campaign"), QString::fromStdString(st.error().message));
        return false;
    }
    if (!path.startsWith(u':')) {
        m_prefs->addRecentFile(QFileInfo(path).absoluteFilePath());
        m_prefs->setLastCampaign(QFileInfo(path).absoluteFilePath());
    } else {
        m_prefs->setLastCampaign({});
    }
    return true;
}

void MainWindow::openDialog()
{
    if (!maybeSave())
        return;
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open campaign"), {}, tr("Campaigns (*.json);;All files (*)"));
    if (!path.isEmpty())
        openCampaign(path);
}

bool MainWindow::save()
{
    if (m_document->needsSaveAs())
        return saveAs();
    return saveAs(m_document->filePath());
}

bool MainWindow::saveAs(const QString &pathIn)
{
    QString path = pathIn;
    if (path.isEmpty()) {
        QString suggestion = QString::fromStdString(m_document->campaign().name).simplified();
        suggestion.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
        path = QFileDialog::getSaveFileName(this, tr("Save campaign"), suggestion + u".json",
                                            tr("Campaigns (*.json)"));
        if (path.isEmpty())
            return false;
    }
    if (const Status st = m_document->save(path); !st) {
        QMessageBox::warning(this, tr("Cannot save campaign"), QString::fromStdString(st.error().message));
        return false;
    }
    m_prefs->addRecentFile(QFileInfo(path).absoluteFilePath());
    m_prefs->setLastCampaign(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("The campaign “%1” has unsaved changes. Save them?").arg(m_document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_run->confirmClose() || !maybeSave()) {
        event->ignore();
        return;
    }
    m_prefs->setWindowGeometry(saveGeometry());
    m_prefs->setWindowState(saveState());
    m_prefs->setCurrentPage(int(currentPage()));
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile() && urls.first().toLocalFile().endsWith(u".json"))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty())
        return;
    event->acceptProposedAction();
    if (maybeSave())
        openCampaign(urls.first().toLocalFile());
}

} // namespace Throughline
