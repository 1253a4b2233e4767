#pragma once
// main() for GUI tests: isolated settings and data folders (never the user's), the Fusion style and
// fixed fonts so offscreen renderings are stable. Use THROUGHLINE_GUI_TEST_MAIN(TestClass).

#include <QApplication>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>

#define THROUGHLINE_GUI_TEST_MAIN(TestObject)                                                                \
    int main(int argc, char *argv[])                                                                         \
    {                                                                                                        \
        QTemporaryDir home;                                                                                  \
        qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toLocal8Bit());                   \
        qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toLocal8Bit());                       \
        qputenv("THROUGHLINE_DB", home.filePath(QStringLiteral("history.sqlite")).toLocal8Bit());            \
        QStandardPaths::setTestModeEnabled(true);                                                            \
        QApplication app(argc, argv);                                                                        \
        QApplication::setOrganizationName(QStringLiteral("Throughline"));                                    \
        QApplication::setApplicationName(QStringLiteral("throughline-test"));                                \
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));                             \
        app.setAttribute(Qt::AA_Use96Dpi, true);                                                             \
        TestObject tc;                                                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return QTest::qExec(&tc, argc, argv);                                                                \
    }
