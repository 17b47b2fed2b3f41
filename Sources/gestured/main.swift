import GesturedCLI

Gestured.main()
