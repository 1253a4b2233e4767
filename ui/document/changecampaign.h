#pragma once
// Undo command replacing the campaign value (before → after). The campaign is a small value type,
// so snapshots keep every edit exact and reversible without per-field command classes; consecutive
// edits with the same merge id collapse (tiled's ChangeMapProperty pattern). GUI thread only.

#include "core/campaign/campaign.h"

#include <QUndoCommand>

namespace Throughline {

class CampaignDocument;

class ChangeCampaign : public QUndoCommand
{
public:
    ChangeCampaign(CampaignDocument *document, const QString &text, Campaign before, Campaign after,
                   int mergeId = -1);

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand *other) override;

    // Stable small integer for a merge key string (the same key → the same id within a process).
    static int mergeIdFor(const QString &key);

private:
    CampaignDocument *m_document;
    Campaign m_before;
    Campaign m_after;
    int m_mergeId;
};

} // namespace Throughline
