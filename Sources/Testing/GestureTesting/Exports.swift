// Scripted touches (`TouchScript`, and its grammar in words) are a library of their own, which
// `gestured synth` uses without the test kit; a test importing GestureTesting gets them too.
@_exported import TouchScripts
