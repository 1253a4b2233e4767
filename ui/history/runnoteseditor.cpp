#include "ui/history/runnoteseditor.h"

#include "core/storage/historymaintenance.h"

#include <QFontMetrics>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>

namespace Throughline {

RunNotesEditor::RunNotesEditor(QWidget *parent)
    : QWidget(parent)
    , m_tags(new QLineEdit)
    , m_notes(new QPlainTextEdit)
    , m_save(new QPushButton(tr("Save tags && notes")))
    , m_revert(new QPushButton(tr("Revert")))
{
    auto *l = new QGridLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    m_tags->setPlaceholderText(tr("tags, comma-separated (e.g. nightly, h200)"));
    m_tags->setClearButtonEnabled(true);
    m_notes->setPlaceholderText(tr("notes about this run"));
    m_notes->setTabChangesFocus(true);
    // About three lines: enough for a remark, small enough to leave the tables and plots their room.
    m_notes->setFixedHeight(QFontMetrics(m_notes->font()).lineSpacing() * 3 + 12);
    auto *tagsLabel = new QLabel(tr("&Tags:"));
    tagsLabel->setBuddy(m_tags);
    auto *notesLabel = new QLabel(tr("&Notes:"));
    notesLabel->setBuddy(m_notes);
    l->addWidget(tagsLabel, 0, 0);
    l->addWidget(m_tags, 0, 1);
    l->addWidget(m_save, 0, 2);
    l->addWidget(m_revert, 0, 3);
    l->addWidget(notesLabel, 1, 0, Qt::AlignTop);
    l->addWidget(m_notes, 1, 1, 1, 3);
    l->setColumnStretch(1, 1);

    connect(m_tags, &QLineEdit::textChanged, this, &RunNotesEditor::updateButtons);
    connect(m_notes, &QPlainTextEdit::textChanged, this, &RunNotesEditor::updateButtons);
    connect(m_tags, &QLineEdit::returnPressed, this, [this] {
        if (auto s = save(); !s)
            emit saveFailed(QString::fromStdString(s.error().message));
    });
    connect(m_save, &QPushButton::clicked, this, [this] {
        if (auto s = save(); !s)
            emit saveFailed(QString::fromStdString(s.error().message));
    });
    connect(m_revert, &QPushButton::clicked, this, &RunNotesEditor::revert);
    setRun({});
}

void RunNotesEditor::setRun(const RunSummary &run)
{
    m_uuid = QString::fromStdString(run.uuid);
    m_storedTags.clear();
    for (const std::string &t : run.tags)
        m_storedTags << QString::fromStdString(t);
    m_storedNotes = QString::fromStdString(run.notes);
    revert();
    m_tags->setEnabled(!m_uuid.isEmpty());
    m_notes->setEnabled(!m_uuid.isEmpty());
}

QStringList RunNotesEditor::tags() const
{
    QStringList out;
    for (const QString &t : m_tags->text().split(u',', Qt::SkipEmptyParts)) {
        const QString tag = t.trimmed();
        if (!tag.isEmpty() && !out.contains(tag))
            out << tag;
    }
    return out;
}

QString RunNotesEditor::notes() const
{
    return m_notes->toPlainText();
}

bool RunNotesEditor::isModified() const
{
    return !m_uuid.isEmpty() && (tags() != m_storedTags || notes() != m_storedNotes);
}

Status RunNotesEditor::save()
{
    if (!isModified())
        return Ok{};
    const std::string path = m_dbPath.toStdString(), uuid = m_uuid.toStdString();
    const QStringList newTags = tags();
    if (newTags != m_storedTags) {
        std::vector<std::string> list;
        for (const QString &t : newTags)
            list.push_back(t.toStdString());
        if (auto s = HistoryMaintenance::setTags(path, uuid, list); !s)
            return s;
        m_storedTags = newTags;
    }
    if (notes() != m_storedNotes) {
        if (auto s = HistoryMaintenance::setNotes(path, uuid, notes().toStdString()); !s)
            return s;
        m_storedNotes = notes();
    }
    updateButtons();
    emit saved(m_uuid);
    return Ok{};
}

void RunNotesEditor::revert()
{
    m_tags->setText(m_storedTags.join(u", "));
    m_notes->setPlainText(m_storedNotes);
    updateButtons();
}

void RunNotesEditor::updateButtons()
{
    const bool modified = isModified();
    m_save->setEnabled(modified);
    m_revert->setEnabled(modified);
}

} // namespace Throughline
