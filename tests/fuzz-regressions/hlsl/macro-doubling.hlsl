#define F(x) x x
#define G(x) F(F(F(F(x))))
int y = G(G(G(G(G(G(1))))));
