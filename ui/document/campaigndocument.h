#pragma once
// The campaign being edited (tiled's Document): owns the Campaign value, its undo stack, the file path
// and the modified flag. Every edit goes through edit(), which pushes a ChangeCampaign command; the
// document emits changed() with the aspects that differ, so views refresh only what moved.
// Lives in the GUI thread.

#include "core/campaign/campaign.h"
#include "core/util/result.h"

#include <QFlags>
#include <QObject>
#include <QString>

#include <functional>

class QUndoStack;

namespace Throughline {

class CampaignDocument : public QObject
{
    Q_OBJECT
public:
    enum Aspect {
        Meta = 0x1,   // name, description, schema version
        Matrix = 0x2, // models, backends, deployments, phases, custom models / GPUs
        Rules = 0x4,  // include / exclude
        Endpoints = 0x8,
        Plan = 0x10,
        Slos = 0x20,
        Overrides = 0x40,
        Targets = 0x80,
        All = 0xff
    };
    Q_DECLARE_FLAGS(Aspects, Aspect)
    Q_FLAG(Aspects)

    explicit CampaignDocument(QObject *parent = nullptr);
    ~CampaignDocument() override;

    const Campaign &campaign() const { return m_campaign; }
    QUndoStack *undoStack() const { return m_undo; }
    QString filePath() const { return m_filePath; }
    // File name, or the campaign name for resources / unsaved documents.
    QString displayName() const;
    bool isModified() const;
    // True for documents not backed by a writable file (new, or opened from a Qt resource).
    bool needsSaveAs() const;

    // Pushes one undo command with `text` that applies `mutate` to a copy of the campaign. Returns
    // false (and pushes nothing) when the edit changes nothing. Edits sharing a non-empty mergeKey
    // collapse into one command while they follow each other (typing into one field).
    bool edit(const QString &text, const std::function<void(Campaign &)> &mutate,
              const QString &mergeKey = {});

    // Replaces the whole document (new / open): clears the undo history and marks it clean.
    void reset(const Campaign &campaign, const QString &filePath);

    // File I/O through core/campaign/campaignjson.h. Errors name the file, line and field.
    Status load(const QString &path);
    Status save(const QString &path);

    static Aspects diff(const Campaign &a, const Campaign &b);

signals:
    void changed(Throughline::CampaignDocument::Aspects aspects);
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);

private:
    friend class ChangeCampaign;
    void setCampaign(const Campaign &campaign); // called by undo commands only
    void setFilePath(const QString &path);

    Campaign m_campaign;
    QUndoStack *m_undo;
    QString m_filePath;
};

} // namespace Throughline

Q_DECLARE_OPERATORS_FOR_FLAGS(Throughline::CampaignDocument::Aspects)
