_a2a_completion() {
    local IFS=$'
'
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \
                   COMP_CWORD=$COMP_CWORD \
                   _A2A_COMPLETE=complete_bash $1 ) )
    return 0
}

complete -o default -F _a2a_completion a2a
