#pragma once
// The application's main window. Lives in the GUI thread.

#include <QMainWindow>

namespace Throughline {

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
};

} // namespace Throughline
