// The vocabulary the core speaks (geometry, gesture kinds and values, recognizer descriptions)
// is a module of its own so that the protocol and a socket client build without the
// recognizers; `import Gestures` still brings all of it.
@_exported import GestureVocabulary
