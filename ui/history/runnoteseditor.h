#pragma once
// Tags and notes of the run shown in the history page's detail tab, editable and saved to the history
// database through HistoryMaintenance::setTags / setNotes (one transaction each, on its own connection).
// Tags are typed comma-separated (a comma can never be part of a tag, as in the store). GUI thread.

#include "core/storage/storagetypes.h"
#include "core/util/result.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace Throughline {

class RunNotesEditor : public QWidget
{
    Q_OBJECT
public:
    explicit RunNotesEditor(QWidget *parent = nullptr);

    void setDatabasePath(const QString &path) { m_dbPath = path; }
    // Shows the run's stored tags and notes; clears the modified state. An empty uuid disables the editor.
    void setRun(const RunSummary &run);
    QString runUuid() const { return m_uuid; }
    bool isModified() const;
    // Tags as typed: split at commas, trimmed, empty entries dropped.
    QStringList tags() const;
    QString notes() const;
    // Writes what changed (tags, notes or both) for the shown run; Ok and no write when nothing changed.
    // On success the edits become the new stored state and saved() is emitted.
    Status save();
    // Back to the stored tags and notes.
    void revert();

    QLineEdit *tagsEdit() const { return m_tags; }
    QPlainTextEdit *notesEdit() const { return m_notes; }
    QPushButton *saveButton() const { return m_save; }

signals:
    void saved(const QString &uuid);
    void saveFailed(const QString &message);

private:
    void updateButtons();

    QString m_dbPath, m_uuid;
    QStringList m_storedTags;
    QString m_storedNotes;
    QLineEdit *m_tags;
    QPlainTextEdit *m_notes;
    QPushButton *m_save, *m_revert;
};

} // namespace Throughline
