#!/bin/sh
# pq-export.sh: writes a pq-bench run's rows (rows.tsv) as pqm4's benchmarks.csv and benchmarks.md (speed, stack, hashing, size), plus hilrun's own report.md and report.json beside them.
#
# usage: scripts/pq-export.sh RUN_DIR
# Figures are the cycle model's estimates on the emulated board named in
# run.tsv, not measurements: each file says so in its first lines.
set -eu
D=${1:?usage: pq-export.sh RUN_DIR}
ROWS=$D/rows.tsv
[ -f "$ROWS" ] || { echo "pq-export: no rows.tsv in $D" >&2; exit 2; }
get() { awk -F '\t' -v k="$1" '$1 == k {print $2}' "$D/run.tsv"; }
BOARD=$(get board); PROFILE=$(get profile); RUNS=$(get runs); SEED=$(get seed)
NOTE="Cycle-model estimates (hilrun, board $BOARD, memory profile $PROFILE, $(get opt), $(get compiler), common code: $(get common)); randombytes: splitmix64 from seed $SEED; not measured on hardware."

# rows.tsv: scheme impl kind op n mean min max median stack hash% text data bss verified
EXPORT='
function c(x,   s, neg) { x = sprintf("%.0f", x); s = ""; while (length(x) > 3) { s = "," substr(x, length(x) - 2) s; x = substr(x, 1, length(x) - 3) } return x s }
{ key = $1 "\t" $2; if (!(key in seen)) { seen[key] = 1; k[$3, ++nk[$3]] = key; rep[key] = $1 " (" $5 " executions)" }
  v[key, $4, "mean"] = $6; v[key, $4, "min"] = $7; v[key, $4, "max"] = $8; v[key, $4, "stack"] = $10; v[key, $4, "hash"] = $11
  sz[key] = $12 "\t" $13 "\t" $14 }
function section(title, kind, ops, heads, what, md,   i, n, o, key, a, line, j) {
	n = split(ops, o, " ")
	if (md) { print "## " title; print "| " heads " |"; line = "|"; for (j = 1; j <= split(heads, a, " \\| "); j++) line = line " --- |"; print line }
	else { print title ",,,,,,,,,,"; print heads }
	for (i = 1; i <= nk[kind]; i++) {
		key = k[kind, i]; split(key, a, "\t"); name = (what == "speed" ? rep[key] : a[1])
		line = md ? "| " name " | " a[2] : name "," a[2]
		for (j = 1; j <= n; j++) {
			# an operation not run (pq-bench -S: no sign row): "-", never a 0
			if (!((key, o[j], "mean") in v)) { line = line (md ? " | -" : (what == "speed" ? ",-,-,-" : ",-")); continue }
			if (what == "speed") {
				if (md) line = line " | AVG: " c(v[key, o[j], "mean"]) " <br /> MIN: " c(v[key, o[j], "min"]) " <br /> MAX: " c(v[key, o[j], "max"])
				else line = line "," v[key, o[j], "mean"] "," v[key, o[j], "min"] "," v[key, o[j], "max"]
			} else if (what == "stack") line = line (md ? " | " c(v[key, o[j], "stack"]) : "," v[key, o[j], "stack"])
			else line = line (md ? " | " sprintf("%.1f%%", v[key, o[j], "hash"]) : "," sprintf("%.1f%%", v[key, o[j], "hash"]))
		}
		if (what == "size") { split(sz[key], s, "\t"); t = s[1] + s[2] + s[3]
			line = md ? "| " a[1] " | " a[2] " | " c(s[1]) " | " c(s[2]) " | " c(s[3]) " | " c(t) : a[1] "," a[2] "," s[1] "," s[2] "," s[3] "," t }
		print line (md ? " |" : "")
	}
	if (md) print ""
}
function all(md) {
	if (md) { print "<!-- " note " -->"; print "# Speed Evaluation" } else print "Speed Evaluation,,,,,,,,,,"
	if (md) { section("Key Encapsulation Schemes", "KEM", "keypair encaps decaps", "scheme | implementation | key generation [cycles] | encapsulation [cycles] | decapsulation [cycles]", "speed", 1)
		  section("Signature Schemes", "SIGN", "keypair sign verify", "scheme | implementation | key generation [cycles] | sign [cycles] | verify [cycles]", "speed", 1)
		  print "# Memory Evaluation"
		  section("Key Encapsulation Schemes", "KEM", "keypair encaps decaps", "Scheme | Implementation | Key Generation [bytes] | Encapsulation [bytes] | Decapsulation [bytes]", "stack", 1)
		  section("Signature Schemes", "SIGN", "keypair sign verify", "Scheme | Implementation | Key Generation [bytes] | Sign [bytes] | Verify [bytes]", "stack", 1)
		  print "# Hashing Evaluation"
		  section("Key Encapsulation Schemes", "KEM", "keypair encaps decaps", "Scheme | Implementation | Key Generation [%] | Encapsulation [%] | Decapsulation [%]", "hash", 1)
		  section("Signature Schemes", "SIGN", "keypair sign verify", "Scheme | Implementation | Key Generation [%] | Sign [%] | Verify [%]", "hash", 1)
		  print "# Size Evaluation"
		  section("Key Encapsulation Schemes", "KEM", "", "Scheme | Implementation | .text [bytes] | .data [bytes] | .bss [bytes] | Total [bytes]", "size", 1)
		  section("Signature Schemes", "SIGN", "", "Scheme | Implementation | .text [bytes] | .data [bytes] | .bss [bytes] | Total [bytes]", "size", 1)
	} else {
		section("Key Encapsulation Schemes", "KEM", "keypair encaps decaps", "Scheme,Implementation,Key Generation [cycles] (mean),Key Generation [cycles] (min),Key Generation [cycles] (max),Encapsulation [cycles] (mean),Encapsulation [cycles] (min),Encapsulation [cycles] (max),Decapsulation [cycles] (mean),Decapsulation [cycles] (min),Decapsulation [cycles] (max)", "speed", 0)
		section("Signature Schemes", "SIGN", "keypair sign verify", "Scheme,Implementation,Key Generation [cycles] (mean),Key Generation [cycles] (min),Key Generation [cycles] (max),Sign [cycles] (mean),Sign [cycles] (min),Sign [cycles] (max),Verify [cycles] (mean),Verify [cycles] (min),Verify [cycles] (max)", "speed", 0)
		print "Memory Evaluation,,,,,,,,,,"
		section("Key Encapsulation Schemes", "KEM", "keypair encaps decaps", "Scheme,Implementation,Key Generation [bytes],Encapsulation [bytes],Decapsulation [bytes]", "stack", 0)
		section("Signature Schemes", "SIGN", "keypair sign verify", "Scheme,Implementation,Key Generation [bytes],Sign [bytes],Verify [bytes]", "stack", 0)
		print "Hashing Evaluation,,,,,,,,,,"
		section("Key Encapsulation Schemes", "KEM", "keypair encaps decaps", "Scheme,Implementation,Key Generation [%],Encapsulation [%],Decapsulation [%]", "hash", 0)
		section("Signature Schemes", "SIGN", "keypair sign verify", "Scheme,Implementation,Key Generation [%],Sign [%],Verify [%]", "hash", 0)
		print "Size Evaluation,,,,,,,,,,"
		section("Key Encapsulation Schemes", "KEM", "", "Scheme,Implementation,.text [bytes],.data [bytes],.bss [bytes],Total [bytes]", "size", 0)
		section("Signature Schemes", "SIGN", "", "Scheme,Implementation,.text [bytes],.data [bytes],.bss [bytes],Total [bytes]", "size", 0)
	}
}
END { all(md) }
'
awk -F '\t' -v note="$NOTE" -v md=1 "$EXPORT" "$ROWS" > "$D/benchmarks.md"
awk -F '\t' -v note="$NOTE" -v md=0 "$EXPORT" "$ROWS" > "$D/benchmarks.csv"

# hilrun's own view: one row per operation, with the verification and what was left out.
{
	echo "# Post-quantum run ($BOARD)"
	echo
	echo "$NOTE"
	echo
	echo "| scheme | implementation | operation | runs | median [cycles] | min | max | mean | peak stack [bytes] | SHA-2/SHA-3/AES [%] | code .text [bytes] | verified |"
	echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
	awk -F '\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s |\n", $1, $2, $4, $5, $9, $7, $8, $6, $10, $11, $12, $15 }' "$ROWS"
	if [ -s "$D/skipped.tsv" ]; then
		echo
		echo "## Not run"
		echo
		echo "| scheme | implementation | reason |"
		echo "| --- | --- | --- |"
		awk -F '\t' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' "$D/skipped.tsv"
	fi
} > "$D/report.md"

awk -F '\t' -v board="$BOARD" -v profile="$PROFILE" -v seed="$SEED" -v runs="$RUNS" '
function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
BEGIN { printf "{\"kind\": \"hilrun-pq\", \"version\": 1, \"board\": %s, \"cycle_profile\": %s, \"estimate\": \"cycle model\", \"randombytes\": {\"generator\": \"splitmix64\", \"seed\": %s}, \"runs\": %s, \"rows\": [", q(board), q(profile), seed, runs }
{ printf "%s\n  {\"scheme\": %s, \"impl\": %s, \"kind\": %s, \"op\": %s, \"runs\": %s, \"cycles\": {\"mean\": %s, \"min\": %s, \"max\": %s, \"median\": %s}, \"stack_bytes\": %s, \"hash_share_pct\": %s, \"size\": {\"text\": %s, \"data\": %s, \"bss\": %s}, \"verified\": %s}", (NR > 1 ? "," : ""), q($1), q($2), q(tolower($3)), q($4), $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, q($15) }
END { print "\n]}" }' "$ROWS" > "$D/report.json"
echo "pq-export: $D/report.md, report.json, benchmarks.md, benchmarks.csv" >&2
