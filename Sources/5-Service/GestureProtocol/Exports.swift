// The protocol's messages are made of the gesture vocabulary (kinds, values, `Rect`,
// `EdgeInsets`): a client's `import GestureProtocol` has it too, without the recognizers.
@_exported import GestureVocabulary
