// MediaIndex module
