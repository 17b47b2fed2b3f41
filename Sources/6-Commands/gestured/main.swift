import GestureCLI

Gestured.main()
