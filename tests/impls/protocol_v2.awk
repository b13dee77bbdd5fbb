#!/usr/bin/awk -f
# A perceptron speaking the novikoff diff --command protocol, versions 1 and 2, in POSIX awk
# (no Python): written from docs/howto/protocol.md. It answers the textbook perceptron
# (version 1 or 2), the voted perceptron (version 2: the weights and one voter line per
# weight vector with its survival count) and the multiclass perceptron (version 2: predict
# the first class of maximal score; on a mistake w_y += x~ and w_p -= x~). It computes in
# float64 (awk's numbers) and prints weights with %.17g, which is exact on float-exact data.
#   awk -f tests/impls/protocol_v2.awk [-v bug=NAME]
# bug=count: a voter's count starts at 0 on the presentation that made it (voted);
# bug=lastmax: predict the LAST class of maximal score (multiclass);
# bug=v1: answer a version-2 request with a version-1 header.
BEGIN { m = 0 }
function num(t,   p) { if (index(t, "/")) { split(t, p, "/"); return p[1] / p[2] } return t + 0 }
function out(v) { return sprintf("%.17g", v) }
$1 == "novikoff-perceptron" { version = $2 }
$1 == "algorithm" { algorithm = $2 }
$1 == "features" { d = $2 }
$1 == "classes" { K = $2 }
$1 == "bias" { rho = num($2) }
$1 == "max_epochs" { epochs = $2 }
$1 == "order" { ordered = ($2 == "given"); for (i = 3; i <= NF; i++) order[i - 3] = $i; if ($2 != "given" && $2 != "natural") odd = $2 }
$1 == "sample" { for (j = 3; j <= NF; j++) x[m, j - 3] = num($j); x[m, d] = rho; y[m] = $2 + 0; m++ }
END {
  head = "novikoff-perceptron " ((bug == "v1") ? 1 : version)
  if (odd != "") { print head; print "unsupported order " odd; print "end"; exit 0 }
  D = (rho == 0) ? d : d + 1
  if (algorithm == "multiclass") { multiclass(); exit 0 }
  if (algorithm != "perceptron" && algorithm != "voted") { print head; print "unsupported " algorithm; print "end"; exit 0 }
  for (j = 0; j < D; j++) { w[j] = 0; v[0, j] = 0 }
  nv = 0; c[0] = 0; k = 0; ups = ""
  for (e = 0; e < epochs; e++) {
    clean = 1
    for (t = 0; t < m; t++) {
      i = ordered ? order[t] : t
      p = 0; for (j = 0; j < D; j++) p += w[j] * x[i, j] * y[i]
      if (p <= 0) {
        for (j = 0; j < D; j++) { w[j] += y[i] * x[i, j]; v[nv + 1, j] = w[j] }
        nv++; c[nv] = (bug == "count") ? -1 : 0; k++; ups = ups " " i; clean = 0
      }
      c[nv]++
    }
    if (clean) { conv = 1; break }
  }
  print head
  line = "weights"; for (j = 0; j < D; j++) line = line " " out(w[j]); print line
  print "updates" ups; print "mistakes " k; print "epochs " (e < epochs ? e + 1 : epochs)
  print "converged " (conv ? "yes" : "no")
  if (algorithm == "voted") for (s = 0; s <= nv; s++) {
    line = "voter " c[s]; for (j = 0; j < D; j++) line = line " " out(v[s, j]); print line
  }
  print "end"
}
function multiclass(   e, t, i, q, best, score, s, j, clean, conv, line, k) {
  for (q = 0; q < K; q++) for (j = 0; j < D; j++) W[q, j] = 0
  k = 0
  for (e = 0; e < epochs; e++) {
    clean = 1
    for (t = 0; t < m; t++) {
      i = ordered ? order[t] : t
      best = 0
      for (q = 0; q < K; q++) {
        s = 0; for (j = 0; j < D; j++) s += W[q, j] * x[i, j]
        if (q == 0 || s > score || (bug == "lastmax" && s == score)) { best = q; score = s }
      }
      if (best != y[i]) {
        for (j = 0; j < D; j++) { W[y[i], j] += x[i, j]; W[best, j] -= x[i, j] }
        k++; clean = 0
      }
    }
    if (clean) { conv = 1; break }
  }
  print "novikoff-perceptron " ((bug == "v1") ? 1 : version)
  line = "weights"; for (q = 0; q < K; q++) for (j = 0; j < D; j++) line = line " " out(W[q, j]); print line
  print "mistakes " k; print "epochs " (e < epochs ? e + 1 : epochs); print "converged " (conv ? "yes" : "no")
  print "end"
}
