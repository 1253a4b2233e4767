#include "core/campaign/campaignhash.h"

#include "core/campaign/campaignjson.h"

#include <QByteArray>
#include <QCryptographicHash>

namespace Throughline {

std::string canonicalCampaignText(const Campaign &campaign)
{
    return CampaignJson::write(campaign);
}

std::string campaignSha256(std::string_view canonicalText)
{
    return QCryptographicHash::hash(QByteArrayView(canonicalText.data(), qsizetype(canonicalText.size())),
                                    QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

} // namespace Throughline
