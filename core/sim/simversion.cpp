// Placeholder translation unit until the simulator lands.
namespace Throughline { int simLibraryPlaceholder() { return 0; } }
