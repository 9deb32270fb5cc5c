#define A(x) A(x) B(x)
#define B(x) A(x)
A(A(A(1)))
