// MediaScanner module
