#include "ui/document/campaignio.h"

#include "core/campaign/campaignjson.h"

#include <QFile>
#include <QSaveFile>

namespace Throughline::CampaignIo {

Result<Campaign> read(const QString &path)
{
    // QFile also opens Qt resources (":/campaigns/demo.json"); core's readFile works on disk paths.
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, path.toStdString() + ": " + f.errorString().toStdString());
    const QByteArray bytes = f.readAll();
    auto campaign = CampaignJson::read(std::string_view(bytes.constData(), size_t(bytes.size())));
    if (!campaign)
        return makeError(campaign.error().code, path.toStdString() + ": " + campaign.error().message);
    return campaign;
}

Status write(const Campaign &campaign, const QString &path)
{
    QSaveFile f(path); // atomic: a failed save never truncates the previous file
    if (!f.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, path.toStdString() + ": " + f.errorString().toStdString());
    const std::string text = CampaignJson::write(campaign);
    if (f.write(text.data(), qint64(text.size())) != qint64(text.size()) || !f.commit())
        return makeError(ErrorCode::Io, path.toStdString() + ": " + f.errorString().toStdString());
    return Ok{};
}

} // namespace Throughline::CampaignIo
