#pragma once
// The report command paints (QPdfWriter, fonts), which needs a QGuiApplication; every other
// command runs on a plain QCoreApplication. main() asks this function which one to create.

#include <QCoreApplication>

#include <memory>

namespace Throughline::Cli {

// QApplication when the subcommand is `report` (on the offscreen platform when neither DISPLAY nor
// WAYLAND_DISPLAY nor QT_QPA_PLATFORM is set), else QCoreApplication.
std::unique_ptr<QCoreApplication> createApplication(int &argc, char **argv);

} // namespace Throughline::Cli
