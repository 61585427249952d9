# labhost.sh: sourced by the lab smoke tests: docs/lab.md's set-up blocks (lab_block NAME prints the block tagged test-lab=NAME) run as on a lab host of their own on this machine (lab_host NAME CMD: its hostname, its own /srv, /etc/hilrun, /etc/slurm, /etc/munge, /run, Slurm's and munge's /var folders, and a clean environment).
# Set lab_root (the checkout) and lab_tmp (the test's folder) before using it.
# lab_host needs root (mount and UTS namespaces); lab_host_can says whether
# they can be made here.

# The folders each lab host has of its own: lab_tmp/hosts/NAME/<path>.
LAB_HOST_DIRS="/srv /etc/hilrun /etc/slurm /etc/munge /run /var/lib/slurm /var/log/slurm /var/lib/munge /var/log/munge"
# Mount points this test had to make on the real system (removed by
# lab_host_cleanup when still empty).
lab_made_dirs=""

# lab_block NAME: the commands of docs/lab.md's fenced block whose info
# string is "sh test-lab=NAME"; fails when there is none or two.
lab_block() {
	awk -v tag="test-lab=$1" '
		/^```/ && inb { inb = 0; next }
		/^```/ { n = split($0, w, " "); for (i = 2; i <= n; i++) if (w[i] == tag) { inb = 1; found++ } next }
		inb { print }
		END { if (found != 1) { printf "docs/lab.md: %d blocks tagged %s\n", found, tag > "/dev/stderr"; exit 1 } }
	' "$lab_root/docs/lab.md"
}

# lab_host_can: 0 when a mount and UTS namespace can be made here.
lab_host_can() {
	unshare -u -m --propagation private true 2>/dev/null
}

# lab_host_make NAME: the host's folders (empty), and the mount points.
lab_host_make() {
	for d in $LAB_HOST_DIRS; do
		mkdir -p "$lab_tmp/hosts/$1$d"
		if [ ! -d "$d" ]; then
			mkdir -p "$d" && lab_made_dirs="$d $lab_made_dirs"
		fi
	done
	chmod 755 "$lab_tmp/hosts/$1/run"
}

lab_host_cleanup() {
	for d in $lab_made_dirs; do
		rmdir "$d" 2>/dev/null || true
	done
}

# lab_host NAME CMD...: CMD as on lab host NAME: hostname NAME, its folders
# bound over the real ones, every host's name resolving to 127.0.0.1
# (lab_tmp/hosts.txt over /etc/hosts), in a clean environment with only
# PATH, HOME, USER, LOGNAME and LANG. With lab_shared set, that folder is bound over
# /srv/lab on every host: the folder they all mount (NFS in a real lab; a
# link would not do: hilrun opens a history through no link).
lab_host() {
	name=$1
	shift
	set -- "$lab_tmp/hosts/$name" "$name" "$lab_tmp/hosts.txt" "$@"
	envs="PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root USER=$(id -un) LOGNAME=$(id -un) LANG=C.UTF-8"
	# shellcheck disable=SC2086
	env -i $envs LAB_HOST_DIRS="$LAB_HOST_DIRS" LAB_SHARED="${lab_shared:-}" \
		unshare -u -m --propagation private sh -c '
		set -e
		r=$1 name=$2 hosts=$3
		shift 3
		hostname "$name"
		for d in $LAB_HOST_DIRS; do
			mount --bind "$r$d" "$d"
		done
		mount --bind "$hosts" /etc/hosts
		if [ -n "$LAB_SHARED" ]; then
			mount --bind "$LAB_SHARED" /srv/lab
		fi
		unset LAB_HOST_DIRS LAB_SHARED
		cd /
		exec "$@"' sh "$@"
}

# lab_run NAME BLOCK: docs/lab.md's block BLOCK, as it is, on host NAME
# (sh -eu: a failing command fails it), after the variables named in
# LAB_VARS set as shell variables (not exported: as an admin sets them in
# the shell, so daemons started there do not inherit them).
lab_run() {
	block=$(lab_block "$2") || return 1
	vars=""
	for v in ${LAB_VARS:-}; do
		eval "val=\${$v:-}"
		case $val in *"'"*) echo "labhost: $v holds a quote" >&2; return 1 ;; esac
		vars="$vars$v='$val'
"
	done
	lab_host "$1" sh -eu -c "$vars$block"
}
