"""A softmax over four scores, two of them masked: what the page's claims read."""
import math

scores = [2.0, 1.0, -math.inf, -math.inf]
exps = [math.exp(s) for s in scores]
weights = [e / sum(exps) for e in exps]
masked = sum(1 for s in scores if s == -math.inf)
largest = max(weights)
