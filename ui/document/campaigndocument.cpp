#include "ui/document/campaigndocument.h"

#include "ui/document/campaignio.h"
#include "ui/document/changecampaign.h"

#include <QFileInfo>
#include <QUndoStack>

namespace Throughline {

CampaignDocument::CampaignDocument(QObject *parent)
    : QObject(parent)
    , m_undo(new QUndoStack(this))
{
    connect(m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
}

CampaignDocument::~CampaignDocument() = default;

QString CampaignDocument::displayName() const
{
    if (!m_filePath.isEmpty() && !m_filePath.startsWith(u':'))
        return QFileInfo(m_filePath).fileName();
    if (!m_campaign.name.empty())
        return QString::fromStdString(m_campaign.name);
    return tr("Untitled campaign");
}

bool CampaignDocument::isModified() const
{
    return !m_undo->isClean();
}

bool CampaignDocument::needsSaveAs() const
{
    return m_filePath.isEmpty() || m_filePath.startsWith(u':');
}

bool CampaignDocument::edit(const QString &text, const std::function<void(Campaign &)> &mutate,
                            const QString &mergeKey)
{
    Campaign after = m_campaign;
    mutate(after);
    if (after == m_campaign)
        return false;
    const int id = mergeKey.isEmpty() ? -1 : ChangeCampaign::mergeIdFor(mergeKey);
    m_undo->push(new ChangeCampaign(this, text, m_campaign, std::move(after), id));
    return true;
}

void CampaignDocument::reset(const Campaign &campaign, const QString &filePath)
{
    m_undo->clear();
    m_campaign = campaign;
    setFilePath(filePath);
    m_undo->setClean();
    emit changed(All);
    emit modifiedChanged(false);
}

Status CampaignDocument::load(const QString &path)
{
    auto campaign = CampaignIo::read(path);
    if (!campaign)
        return campaign.error();
    reset(*campaign, path);
    return Ok{};
}

Status CampaignDocument::save(const QString &path)
{
    if (auto st = CampaignIo::write(m_campaign, path); !st)
        return st;
    setFilePath(path);
    m_undo->setClean();
    return Ok{};
}

void CampaignDocument::setCampaign(const Campaign &campaign)
{
    const Aspects aspects = diff(m_campaign, campaign);
    m_campaign = campaign;
    if (aspects)
        emit changed(aspects);
}

void CampaignDocument::setFilePath(const QString &path)
{
    if (path == m_filePath)
        return;
    m_filePath = path;
    emit filePathChanged(path);
}

CampaignDocument::Aspects CampaignDocument::diff(const Campaign &a, const Campaign &b)
{
    Aspects r;
    if (a.name != b.name || a.description != b.description || a.schemaVersion != b.schemaVersion)
        r |= Meta;
    if (a.models != b.models || a.backends != b.backends || a.deployments != b.deployments ||
        a.phases != b.phases || a.customModels != b.customModels || a.customGpus != b.customGpus)
        r |= Matrix;
    if (a.include != b.include || a.exclude != b.exclude)
        r |= Rules;
    if (a.endpoints != b.endpoints)
        r |= Endpoints;
    if (a.plan != b.plan)
        r |= Plan;
    if (a.slos != b.slos)
        r |= Slos;
    if (a.overrides != b.overrides)
        r |= Overrides;
    if (a.targets != b.targets)
        r |= Targets;
    return r;
}

} // namespace Throughline
