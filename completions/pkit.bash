_pkit() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="pkit"
                ;;
            pkit,acme)
                cmd="pkit__subcmd__acme"
                ;;
            pkit,bench)
                cmd="pkit__subcmd__bench"
                ;;
            pkit,ca)
                cmd="pkit__subcmd__ca"
                ;;
            pkit,completions)
                cmd="pkit__subcmd__completions"
                ;;
            pkit,crl)
                cmd="pkit__subcmd__crl"
                ;;
            pkit,gen-docs)
                cmd="pkit__subcmd__gen__subcmd__docs"
                ;;
            pkit,help)
                cmd="pkit__subcmd__help"
                ;;
            pkit,issue)
                cmd="pkit__subcmd__issue"
                ;;
            pkit,key)
                cmd="pkit__subcmd__key"
                ;;
            pkit,lint)
                cmd="pkit__subcmd__lint"
                ;;
            pkit,mtc)
                cmd="pkit__subcmd__mtc"
                ;;
            pkit,ocsp)
                cmd="pkit__subcmd__ocsp"
                ;;
            pkit,parse)
                cmd="pkit__subcmd__parse"
                ;;
            pkit,verify)
                cmd="pkit__subcmd__verify"
                ;;
            pkit__subcmd__acme,accounts)
                cmd="pkit__subcmd__acme__subcmd__accounts"
                ;;
            pkit__subcmd__acme,help)
                cmd="pkit__subcmd__acme__subcmd__help"
                ;;
            pkit__subcmd__acme,orders)
                cmd="pkit__subcmd__acme__subcmd__orders"
                ;;
            pkit__subcmd__acme,serve)
                cmd="pkit__subcmd__acme__subcmd__serve"
                ;;
            pkit__subcmd__acme__subcmd__help,accounts)
                cmd="pkit__subcmd__acme__subcmd__help__subcmd__accounts"
                ;;
            pkit__subcmd__acme__subcmd__help,help)
                cmd="pkit__subcmd__acme__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__acme__subcmd__help,orders)
                cmd="pkit__subcmd__acme__subcmd__help__subcmd__orders"
                ;;
            pkit__subcmd__acme__subcmd__help,serve)
                cmd="pkit__subcmd__acme__subcmd__help__subcmd__serve"
                ;;
            pkit__subcmd__bench,compare)
                cmd="pkit__subcmd__bench__subcmd__compare"
                ;;
            pkit__subcmd__bench,crypto)
                cmd="pkit__subcmd__bench__subcmd__crypto"
                ;;
            pkit__subcmd__bench,help)
                cmd="pkit__subcmd__bench__subcmd__help"
                ;;
            pkit__subcmd__bench,mtc)
                cmd="pkit__subcmd__bench__subcmd__mtc"
                ;;
            pkit__subcmd__bench,parse)
                cmd="pkit__subcmd__bench__subcmd__parse"
                ;;
            pkit__subcmd__bench,verify)
                cmd="pkit__subcmd__bench__subcmd__verify"
                ;;
            pkit__subcmd__bench,x509)
                cmd="pkit__subcmd__bench__subcmd__x509"
                ;;
            pkit__subcmd__bench__subcmd__help,compare)
                cmd="pkit__subcmd__bench__subcmd__help__subcmd__compare"
                ;;
            pkit__subcmd__bench__subcmd__help,crypto)
                cmd="pkit__subcmd__bench__subcmd__help__subcmd__crypto"
                ;;
            pkit__subcmd__bench__subcmd__help,help)
                cmd="pkit__subcmd__bench__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__bench__subcmd__help,mtc)
                cmd="pkit__subcmd__bench__subcmd__help__subcmd__mtc"
                ;;
            pkit__subcmd__bench__subcmd__help,parse)
                cmd="pkit__subcmd__bench__subcmd__help__subcmd__parse"
                ;;
            pkit__subcmd__bench__subcmd__help,verify)
                cmd="pkit__subcmd__bench__subcmd__help__subcmd__verify"
                ;;
            pkit__subcmd__bench__subcmd__help,x509)
                cmd="pkit__subcmd__bench__subcmd__help__subcmd__x509"
                ;;
            pkit__subcmd__ca,help)
                cmd="pkit__subcmd__ca__subcmd__help"
                ;;
            pkit__subcmd__ca,serve)
                cmd="pkit__subcmd__ca__subcmd__serve"
                ;;
            pkit__subcmd__ca__subcmd__help,help)
                cmd="pkit__subcmd__ca__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__ca__subcmd__help,serve)
                cmd="pkit__subcmd__ca__subcmd__help__subcmd__serve"
                ;;
            pkit__subcmd__crl,check)
                cmd="pkit__subcmd__crl__subcmd__check"
                ;;
            pkit__subcmd__crl,gen)
                cmd="pkit__subcmd__crl__subcmd__gen"
                ;;
            pkit__subcmd__crl,help)
                cmd="pkit__subcmd__crl__subcmd__help"
                ;;
            pkit__subcmd__crl,revoke)
                cmd="pkit__subcmd__crl__subcmd__revoke"
                ;;
            pkit__subcmd__crl,verify)
                cmd="pkit__subcmd__crl__subcmd__verify"
                ;;
            pkit__subcmd__crl__subcmd__help,check)
                cmd="pkit__subcmd__crl__subcmd__help__subcmd__check"
                ;;
            pkit__subcmd__crl__subcmd__help,gen)
                cmd="pkit__subcmd__crl__subcmd__help__subcmd__gen"
                ;;
            pkit__subcmd__crl__subcmd__help,help)
                cmd="pkit__subcmd__crl__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__crl__subcmd__help,revoke)
                cmd="pkit__subcmd__crl__subcmd__help__subcmd__revoke"
                ;;
            pkit__subcmd__crl__subcmd__help,verify)
                cmd="pkit__subcmd__crl__subcmd__help__subcmd__verify"
                ;;
            pkit__subcmd__help,acme)
                cmd="pkit__subcmd__help__subcmd__acme"
                ;;
            pkit__subcmd__help,bench)
                cmd="pkit__subcmd__help__subcmd__bench"
                ;;
            pkit__subcmd__help,ca)
                cmd="pkit__subcmd__help__subcmd__ca"
                ;;
            pkit__subcmd__help,completions)
                cmd="pkit__subcmd__help__subcmd__completions"
                ;;
            pkit__subcmd__help,crl)
                cmd="pkit__subcmd__help__subcmd__crl"
                ;;
            pkit__subcmd__help,gen-docs)
                cmd="pkit__subcmd__help__subcmd__gen__subcmd__docs"
                ;;
            pkit__subcmd__help,help)
                cmd="pkit__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__help,issue)
                cmd="pkit__subcmd__help__subcmd__issue"
                ;;
            pkit__subcmd__help,key)
                cmd="pkit__subcmd__help__subcmd__key"
                ;;
            pkit__subcmd__help,lint)
                cmd="pkit__subcmd__help__subcmd__lint"
                ;;
            pkit__subcmd__help,mtc)
                cmd="pkit__subcmd__help__subcmd__mtc"
                ;;
            pkit__subcmd__help,ocsp)
                cmd="pkit__subcmd__help__subcmd__ocsp"
                ;;
            pkit__subcmd__help,parse)
                cmd="pkit__subcmd__help__subcmd__parse"
                ;;
            pkit__subcmd__help,verify)
                cmd="pkit__subcmd__help__subcmd__verify"
                ;;
            pkit__subcmd__help__subcmd__acme,accounts)
                cmd="pkit__subcmd__help__subcmd__acme__subcmd__accounts"
                ;;
            pkit__subcmd__help__subcmd__acme,orders)
                cmd="pkit__subcmd__help__subcmd__acme__subcmd__orders"
                ;;
            pkit__subcmd__help__subcmd__acme,serve)
                cmd="pkit__subcmd__help__subcmd__acme__subcmd__serve"
                ;;
            pkit__subcmd__help__subcmd__bench,compare)
                cmd="pkit__subcmd__help__subcmd__bench__subcmd__compare"
                ;;
            pkit__subcmd__help__subcmd__bench,crypto)
                cmd="pkit__subcmd__help__subcmd__bench__subcmd__crypto"
                ;;
            pkit__subcmd__help__subcmd__bench,mtc)
                cmd="pkit__subcmd__help__subcmd__bench__subcmd__mtc"
                ;;
            pkit__subcmd__help__subcmd__bench,parse)
                cmd="pkit__subcmd__help__subcmd__bench__subcmd__parse"
                ;;
            pkit__subcmd__help__subcmd__bench,verify)
                cmd="pkit__subcmd__help__subcmd__bench__subcmd__verify"
                ;;
            pkit__subcmd__help__subcmd__bench,x509)
                cmd="pkit__subcmd__help__subcmd__bench__subcmd__x509"
                ;;
            pkit__subcmd__help__subcmd__ca,serve)
                cmd="pkit__subcmd__help__subcmd__ca__subcmd__serve"
                ;;
            pkit__subcmd__help__subcmd__crl,check)
                cmd="pkit__subcmd__help__subcmd__crl__subcmd__check"
                ;;
            pkit__subcmd__help__subcmd__crl,gen)
                cmd="pkit__subcmd__help__subcmd__crl__subcmd__gen"
                ;;
            pkit__subcmd__help__subcmd__crl,revoke)
                cmd="pkit__subcmd__help__subcmd__crl__subcmd__revoke"
                ;;
            pkit__subcmd__help__subcmd__crl,verify)
                cmd="pkit__subcmd__help__subcmd__crl__subcmd__verify"
                ;;
            pkit__subcmd__help__subcmd__issue,batch)
                cmd="pkit__subcmd__help__subcmd__issue__subcmd__batch"
                ;;
            pkit__subcmd__help__subcmd__issue,ca)
                cmd="pkit__subcmd__help__subcmd__issue__subcmd__ca"
                ;;
            pkit__subcmd__help__subcmd__issue,cert)
                cmd="pkit__subcmd__help__subcmd__issue__subcmd__cert"
                ;;
            pkit__subcmd__help__subcmd__issue,csr)
                cmd="pkit__subcmd__help__subcmd__issue__subcmd__csr"
                ;;
            pkit__subcmd__help__subcmd__issue,export)
                cmd="pkit__subcmd__help__subcmd__issue__subcmd__export"
                ;;
            pkit__subcmd__help__subcmd__issue,list)
                cmd="pkit__subcmd__help__subcmd__issue__subcmd__list"
                ;;
            pkit__subcmd__help__subcmd__issue,policy)
                cmd="pkit__subcmd__help__subcmd__issue__subcmd__policy"
                ;;
            pkit__subcmd__help__subcmd__issue,renew)
                cmd="pkit__subcmd__help__subcmd__issue__subcmd__renew"
                ;;
            pkit__subcmd__help__subcmd__key,gen)
                cmd="pkit__subcmd__help__subcmd__key__subcmd__gen"
                ;;
            pkit__subcmd__help__subcmd__key,p12)
                cmd="pkit__subcmd__help__subcmd__key__subcmd__p12"
                ;;
            pkit__subcmd__help__subcmd__key,pub)
                cmd="pkit__subcmd__help__subcmd__key__subcmd__pub"
                ;;
            pkit__subcmd__help__subcmd__mtc,add)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__add"
                ;;
            pkit__subcmd__help__subcmd__mtc,audit)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__audit"
                ;;
            pkit__subcmd__help__subcmd__mtc,ca)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__ca"
                ;;
            pkit__subcmd__help__subcmd__mtc,cert)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__cert"
                ;;
            pkit__subcmd__help__subcmd__mtc,checkpoint)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__checkpoint"
                ;;
            pkit__subcmd__help__subcmd__mtc,consistency)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__consistency"
                ;;
            pkit__subcmd__help__subcmd__mtc,cosign)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__cosign"
                ;;
            pkit__subcmd__help__subcmd__mtc,landmark)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__landmark"
                ;;
            pkit__subcmd__help__subcmd__mtc,proof)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__proof"
                ;;
            pkit__subcmd__help__subcmd__mtc,serve)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__serve"
                ;;
            pkit__subcmd__help__subcmd__mtc,size)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__size"
                ;;
            pkit__subcmd__help__subcmd__mtc,tiles)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__tiles"
                ;;
            pkit__subcmd__help__subcmd__mtc,verify)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__verify"
                ;;
            pkit__subcmd__help__subcmd__mtc,witness)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__witness"
                ;;
            pkit__subcmd__help__subcmd__mtc__subcmd__ca,new)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__ca__subcmd__new"
                ;;
            pkit__subcmd__help__subcmd__mtc__subcmd__landmark,allocate)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__landmark__subcmd__allocate"
                ;;
            pkit__subcmd__help__subcmd__mtc__subcmd__landmark,list)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__landmark__subcmd__list"
                ;;
            pkit__subcmd__help__subcmd__mtc__subcmd__witness,serve)
                cmd="pkit__subcmd__help__subcmd__mtc__subcmd__witness__subcmd__serve"
                ;;
            pkit__subcmd__help__subcmd__ocsp,request)
                cmd="pkit__subcmd__help__subcmd__ocsp__subcmd__request"
                ;;
            pkit__subcmd__help__subcmd__ocsp,respond)
                cmd="pkit__subcmd__help__subcmd__ocsp__subcmd__respond"
                ;;
            pkit__subcmd__help__subcmd__ocsp,serve)
                cmd="pkit__subcmd__help__subcmd__ocsp__subcmd__serve"
                ;;
            pkit__subcmd__help__subcmd__ocsp,verify)
                cmd="pkit__subcmd__help__subcmd__ocsp__subcmd__verify"
                ;;
            pkit__subcmd__issue,batch)
                cmd="pkit__subcmd__issue__subcmd__batch"
                ;;
            pkit__subcmd__issue,ca)
                cmd="pkit__subcmd__issue__subcmd__ca"
                ;;
            pkit__subcmd__issue,cert)
                cmd="pkit__subcmd__issue__subcmd__cert"
                ;;
            pkit__subcmd__issue,csr)
                cmd="pkit__subcmd__issue__subcmd__csr"
                ;;
            pkit__subcmd__issue,export)
                cmd="pkit__subcmd__issue__subcmd__export"
                ;;
            pkit__subcmd__issue,help)
                cmd="pkit__subcmd__issue__subcmd__help"
                ;;
            pkit__subcmd__issue,list)
                cmd="pkit__subcmd__issue__subcmd__list"
                ;;
            pkit__subcmd__issue,policy)
                cmd="pkit__subcmd__issue__subcmd__policy"
                ;;
            pkit__subcmd__issue,renew)
                cmd="pkit__subcmd__issue__subcmd__renew"
                ;;
            pkit__subcmd__issue__subcmd__help,batch)
                cmd="pkit__subcmd__issue__subcmd__help__subcmd__batch"
                ;;
            pkit__subcmd__issue__subcmd__help,ca)
                cmd="pkit__subcmd__issue__subcmd__help__subcmd__ca"
                ;;
            pkit__subcmd__issue__subcmd__help,cert)
                cmd="pkit__subcmd__issue__subcmd__help__subcmd__cert"
                ;;
            pkit__subcmd__issue__subcmd__help,csr)
                cmd="pkit__subcmd__issue__subcmd__help__subcmd__csr"
                ;;
            pkit__subcmd__issue__subcmd__help,export)
                cmd="pkit__subcmd__issue__subcmd__help__subcmd__export"
                ;;
            pkit__subcmd__issue__subcmd__help,help)
                cmd="pkit__subcmd__issue__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__issue__subcmd__help,list)
                cmd="pkit__subcmd__issue__subcmd__help__subcmd__list"
                ;;
            pkit__subcmd__issue__subcmd__help,policy)
                cmd="pkit__subcmd__issue__subcmd__help__subcmd__policy"
                ;;
            pkit__subcmd__issue__subcmd__help,renew)
                cmd="pkit__subcmd__issue__subcmd__help__subcmd__renew"
                ;;
            pkit__subcmd__key,gen)
                cmd="pkit__subcmd__key__subcmd__gen"
                ;;
            pkit__subcmd__key,help)
                cmd="pkit__subcmd__key__subcmd__help"
                ;;
            pkit__subcmd__key,p12)
                cmd="pkit__subcmd__key__subcmd__p12"
                ;;
            pkit__subcmd__key,pub)
                cmd="pkit__subcmd__key__subcmd__pub"
                ;;
            pkit__subcmd__key__subcmd__help,gen)
                cmd="pkit__subcmd__key__subcmd__help__subcmd__gen"
                ;;
            pkit__subcmd__key__subcmd__help,help)
                cmd="pkit__subcmd__key__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__key__subcmd__help,p12)
                cmd="pkit__subcmd__key__subcmd__help__subcmd__p12"
                ;;
            pkit__subcmd__key__subcmd__help,pub)
                cmd="pkit__subcmd__key__subcmd__help__subcmd__pub"
                ;;
            pkit__subcmd__mtc,add)
                cmd="pkit__subcmd__mtc__subcmd__add"
                ;;
            pkit__subcmd__mtc,audit)
                cmd="pkit__subcmd__mtc__subcmd__audit"
                ;;
            pkit__subcmd__mtc,ca)
                cmd="pkit__subcmd__mtc__subcmd__ca"
                ;;
            pkit__subcmd__mtc,cert)
                cmd="pkit__subcmd__mtc__subcmd__cert"
                ;;
            pkit__subcmd__mtc,checkpoint)
                cmd="pkit__subcmd__mtc__subcmd__checkpoint"
                ;;
            pkit__subcmd__mtc,consistency)
                cmd="pkit__subcmd__mtc__subcmd__consistency"
                ;;
            pkit__subcmd__mtc,cosign)
                cmd="pkit__subcmd__mtc__subcmd__cosign"
                ;;
            pkit__subcmd__mtc,help)
                cmd="pkit__subcmd__mtc__subcmd__help"
                ;;
            pkit__subcmd__mtc,landmark)
                cmd="pkit__subcmd__mtc__subcmd__landmark"
                ;;
            pkit__subcmd__mtc,proof)
                cmd="pkit__subcmd__mtc__subcmd__proof"
                ;;
            pkit__subcmd__mtc,serve)
                cmd="pkit__subcmd__mtc__subcmd__serve"
                ;;
            pkit__subcmd__mtc,size)
                cmd="pkit__subcmd__mtc__subcmd__size"
                ;;
            pkit__subcmd__mtc,tiles)
                cmd="pkit__subcmd__mtc__subcmd__tiles"
                ;;
            pkit__subcmd__mtc,verify)
                cmd="pkit__subcmd__mtc__subcmd__verify"
                ;;
            pkit__subcmd__mtc,witness)
                cmd="pkit__subcmd__mtc__subcmd__witness"
                ;;
            pkit__subcmd__mtc__subcmd__ca,help)
                cmd="pkit__subcmd__mtc__subcmd__ca__subcmd__help"
                ;;
            pkit__subcmd__mtc__subcmd__ca,new)
                cmd="pkit__subcmd__mtc__subcmd__ca__subcmd__new"
                ;;
            pkit__subcmd__mtc__subcmd__ca__subcmd__help,help)
                cmd="pkit__subcmd__mtc__subcmd__ca__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__mtc__subcmd__ca__subcmd__help,new)
                cmd="pkit__subcmd__mtc__subcmd__ca__subcmd__help__subcmd__new"
                ;;
            pkit__subcmd__mtc__subcmd__help,add)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__add"
                ;;
            pkit__subcmd__mtc__subcmd__help,audit)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__audit"
                ;;
            pkit__subcmd__mtc__subcmd__help,ca)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__ca"
                ;;
            pkit__subcmd__mtc__subcmd__help,cert)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__cert"
                ;;
            pkit__subcmd__mtc__subcmd__help,checkpoint)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__checkpoint"
                ;;
            pkit__subcmd__mtc__subcmd__help,consistency)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__consistency"
                ;;
            pkit__subcmd__mtc__subcmd__help,cosign)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__cosign"
                ;;
            pkit__subcmd__mtc__subcmd__help,help)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__mtc__subcmd__help,landmark)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__landmark"
                ;;
            pkit__subcmd__mtc__subcmd__help,proof)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__proof"
                ;;
            pkit__subcmd__mtc__subcmd__help,serve)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__serve"
                ;;
            pkit__subcmd__mtc__subcmd__help,size)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__size"
                ;;
            pkit__subcmd__mtc__subcmd__help,tiles)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__tiles"
                ;;
            pkit__subcmd__mtc__subcmd__help,verify)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__verify"
                ;;
            pkit__subcmd__mtc__subcmd__help,witness)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__witness"
                ;;
            pkit__subcmd__mtc__subcmd__help__subcmd__ca,new)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__ca__subcmd__new"
                ;;
            pkit__subcmd__mtc__subcmd__help__subcmd__landmark,allocate)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__landmark__subcmd__allocate"
                ;;
            pkit__subcmd__mtc__subcmd__help__subcmd__landmark,list)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__landmark__subcmd__list"
                ;;
            pkit__subcmd__mtc__subcmd__help__subcmd__witness,serve)
                cmd="pkit__subcmd__mtc__subcmd__help__subcmd__witness__subcmd__serve"
                ;;
            pkit__subcmd__mtc__subcmd__landmark,allocate)
                cmd="pkit__subcmd__mtc__subcmd__landmark__subcmd__allocate"
                ;;
            pkit__subcmd__mtc__subcmd__landmark,help)
                cmd="pkit__subcmd__mtc__subcmd__landmark__subcmd__help"
                ;;
            pkit__subcmd__mtc__subcmd__landmark,list)
                cmd="pkit__subcmd__mtc__subcmd__landmark__subcmd__list"
                ;;
            pkit__subcmd__mtc__subcmd__landmark__subcmd__help,allocate)
                cmd="pkit__subcmd__mtc__subcmd__landmark__subcmd__help__subcmd__allocate"
                ;;
            pkit__subcmd__mtc__subcmd__landmark__subcmd__help,help)
                cmd="pkit__subcmd__mtc__subcmd__landmark__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__mtc__subcmd__landmark__subcmd__help,list)
                cmd="pkit__subcmd__mtc__subcmd__landmark__subcmd__help__subcmd__list"
                ;;
            pkit__subcmd__mtc__subcmd__witness,help)
                cmd="pkit__subcmd__mtc__subcmd__witness__subcmd__help"
                ;;
            pkit__subcmd__mtc__subcmd__witness,serve)
                cmd="pkit__subcmd__mtc__subcmd__witness__subcmd__serve"
                ;;
            pkit__subcmd__mtc__subcmd__witness__subcmd__help,help)
                cmd="pkit__subcmd__mtc__subcmd__witness__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__mtc__subcmd__witness__subcmd__help,serve)
                cmd="pkit__subcmd__mtc__subcmd__witness__subcmd__help__subcmd__serve"
                ;;
            pkit__subcmd__ocsp,help)
                cmd="pkit__subcmd__ocsp__subcmd__help"
                ;;
            pkit__subcmd__ocsp,request)
                cmd="pkit__subcmd__ocsp__subcmd__request"
                ;;
            pkit__subcmd__ocsp,respond)
                cmd="pkit__subcmd__ocsp__subcmd__respond"
                ;;
            pkit__subcmd__ocsp,serve)
                cmd="pkit__subcmd__ocsp__subcmd__serve"
                ;;
            pkit__subcmd__ocsp,verify)
                cmd="pkit__subcmd__ocsp__subcmd__verify"
                ;;
            pkit__subcmd__ocsp__subcmd__help,help)
                cmd="pkit__subcmd__ocsp__subcmd__help__subcmd__help"
                ;;
            pkit__subcmd__ocsp__subcmd__help,request)
                cmd="pkit__subcmd__ocsp__subcmd__help__subcmd__request"
                ;;
            pkit__subcmd__ocsp__subcmd__help,respond)
                cmd="pkit__subcmd__ocsp__subcmd__help__subcmd__respond"
                ;;
            pkit__subcmd__ocsp__subcmd__help,serve)
                cmd="pkit__subcmd__ocsp__subcmd__help__subcmd__serve"
                ;;
            pkit__subcmd__ocsp__subcmd__help,verify)
                cmd="pkit__subcmd__ocsp__subcmd__help__subcmd__verify"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        pkit)
            opts="-V -h --version --color --help parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__acme)
            opts="-h --color --help serve accounts orders help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__acme__subcmd__accounts)
            opts="-f -h --ca --db --db-passin --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__acme__subcmd__help)
            opts="serve accounts orders help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__acme__subcmd__help__subcmd__accounts)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__acme__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__acme__subcmd__help__subcmd__orders)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__acme__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__acme__subcmd__orders)
            opts="-f -h --ca --db --db-passin --account --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --account)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__acme__subcmd__serve)
            opts="-h --ca --db --db-passin --passin --pin --listen --threads --max-connections --header-timeout --base-url --tls-cert --tls-key --plain-http --http-port --tls-port --resolver --caa-identity --eab-keys --profile --mtc --mtc-passin --mtc-db-passin --mtc-days --mtc-to --mtc-witness --mtc-witness-quorum --mtc-witness-timeout --s3-endpoint --s3-region --s3-jobs --checkpoint-every --landmark-every --landmark-lifetime --orders-per-account --order-lifetime --terms-of-service --validators --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --header-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --http-port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --resolver)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --caa-identity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eab-keys)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-days)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-witness)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-witness-quorum)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-witness-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-endpoint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-region)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --checkpoint-every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --landmark-every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --landmark-lifetime)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --orders-per-account)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --order-lifetime)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --terms-of-service)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validators)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench)
            opts="-h --color --help crypto parse x509 verify mtc compare help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__compare)
            opts="-f -h --algos --backends --ops --sizes --columns --min-time --threads --format --backend --nss-db --pin --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --algos)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --backends)
                    COMPREPLY=($(compgen -W "openssl nss softhsm" -- "${cur}"))
                    return 0
                    ;;
                --ops)
                    COMPREPLY=($(compgen -W "ca_self_sign cert_gen db_insert_certs cert_verify db_read_certs crl_build crl_sign db_insert_crl crl_verify db_read_crl ocsp_build ocsp_sign db_insert_ocsp ocsp_verify db_read_ocsp" -- "${cur}"))
                    return 0
                    ;;
                --sizes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                --backend)
                    COMPREPLY=($(compgen -W "openssl nss softhsm" -- "${cur}"))
                    return 0
                    ;;
                --nss-db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__crypto)
            opts="-f -h --algos --batch-sizes --min-time --threads --format --backend --nss-db --pin --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --algos)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --batch-sizes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                --backend)
                    COMPREPLY=($(compgen -W "openssl nss softhsm" -- "${cur}"))
                    return 0
                    ;;
                --nss-db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__help)
            opts="crypto parse x509 verify mtc compare help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__help__subcmd__compare)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__help__subcmd__crypto)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__help__subcmd__mtc)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__help__subcmd__parse)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__help__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__help__subcmd__x509)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__mtc)
            opts="-f -h --ca-key-algo --db --db-passin --sizes --columns --min-time --threads --format --backend --nss-db --pin --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca-key-algo)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sizes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                --backend)
                    COMPREPLY=($(compgen -W "openssl nss softhsm" -- "${cur}"))
                    return 0
                    ;;
                --nss-db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__parse)
            opts="-f -h --datasets --dataset-size --cache-dir --min-time --threads --format --backend --nss-db --pin --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --datasets)
                    COMPREPLY=($(compgen -W "roots ccadb mldsa" -- "${cur}"))
                    return 0
                    ;;
                --dataset-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                --backend)
                    COMPREPLY=($(compgen -W "openssl nss softhsm" -- "${cur}"))
                    return 0
                    ;;
                --nss-db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__verify)
            opts="-f -h --ca-key-algo --roots --sizes --columns --min-time --threads --format --backend --nss-db --pin --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca-key-algo)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --roots)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sizes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                --backend)
                    COMPREPLY=($(compgen -W "openssl nss softhsm" -- "${cur}"))
                    return 0
                    ;;
                --nss-db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__bench__subcmd__x509)
            opts="-f -h --ca-key-algo --db --db-passin --force --sizes --columns --min-time --threads --format --backend --nss-db --pin --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca-key-algo)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sizes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "markdown table json" -- "${cur}"))
                    return 0
                    ;;
                --backend)
                    COMPREPLY=($(compgen -W "openssl nss softhsm" -- "${cur}"))
                    return 0
                    ;;
                --nss-db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ca)
            opts="-h --color --help serve help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ca__subcmd__help)
            opts="serve help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ca__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ca__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ca__subcmd__serve)
            opts="-h --ca --db-passin --passin --pin --listen --threads --max-connections --header-timeout --ocsp-next-update --crl-next-update --crl-max-age --keep-expired --acme --acme-listen --acme-ca --base-url --tls-cert --tls-key --plain-http --http-port --tls-port --resolver --caa-identity --eab-keys --profile --mtc --mtc-passin --mtc-db-passin --mtc-days --mtc-to --mtc-witness --mtc-witness-quorum --mtc-witness-timeout --s3-endpoint --s3-region --s3-jobs --checkpoint-every --landmark-every --landmark-lifetime --orders-per-account --order-lifetime --terms-of-service --validators --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --header-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ocsp-next-update)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crl-next-update)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crl-max-age)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --acme-listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --acme-ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --http-port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tls-port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --resolver)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --caa-identity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eab-keys)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-days)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-witness)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-witness-quorum)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mtc-witness-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-endpoint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-region)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --checkpoint-every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --landmark-every)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --landmark-lifetime)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --orders-per-account)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --order-lifetime)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --terms-of-service)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --validators)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__completions)
            opts="-h --color --help bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl)
            opts="-h --color --help revoke gen verify check help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl__subcmd__check)
            opts="-f -h --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl__subcmd__gen)
            opts="-o -f -h --ca --db --db-passin --passin --pin --lint --next-update --drop-expired --now --outform --out --force --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lint)
                    COMPREPLY=($(compgen -W "enforce warn off" -- "${cur}"))
                    return 0
                    ;;
                --next-update)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --outform)
                    COMPREPLY=($(compgen -W "pem der" -- "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl__subcmd__help)
            opts="revoke gen verify check help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl__subcmd__help__subcmd__check)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl__subcmd__help__subcmd__gen)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl__subcmd__help__subcmd__revoke)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl__subcmd__help__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl__subcmd__revoke)
            opts="-f -h --ca --db --db-passin --cert --undelivered --reason --at --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --reason)
                    COMPREPLY=($(compgen -W "keyCompromise cACompromise affiliationChanged superseded cessationOfOperation certificateHold privilegeWithdrawn aACompromise unspecified" -- "${cur}"))
                    return 0
                    ;;
                --at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__crl__subcmd__verify)
            opts="-f -h --issuer --now --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --issuer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__gen__subcmd__docs)
            opts="-h --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help)
            opts="parse key issue crl ocsp verify lint acme ca mtc bench completions gen-docs help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__acme)
            opts="serve accounts orders"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__acme__subcmd__accounts)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__acme__subcmd__orders)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__acme__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__bench)
            opts="crypto parse x509 verify mtc compare"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__bench__subcmd__compare)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__bench__subcmd__crypto)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__bench__subcmd__mtc)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__bench__subcmd__parse)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__bench__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__bench__subcmd__x509)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__ca)
            opts="serve"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__ca__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__crl)
            opts="revoke gen verify check"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__crl__subcmd__check)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__crl__subcmd__gen)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__crl__subcmd__revoke)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__crl__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__gen__subcmd__docs)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__issue)
            opts="ca csr cert batch renew policy list export"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__issue__subcmd__batch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__issue__subcmd__ca)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__issue__subcmd__cert)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__issue__subcmd__csr)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__issue__subcmd__export)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__issue__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__issue__subcmd__policy)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__issue__subcmd__renew)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__key)
            opts="gen pub p12"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__key__subcmd__gen)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__key__subcmd__p12)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__key__subcmd__pub)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__lint)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc)
            opts="ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__audit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__ca)
            opts="new"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__ca__subcmd__new)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__cert)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__checkpoint)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__consistency)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__cosign)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__landmark)
            opts="allocate list"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__landmark__subcmd__allocate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__landmark__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__proof)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__size)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__tiles)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__witness)
            opts="serve"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__mtc__subcmd__witness__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__ocsp)
            opts="request respond verify serve"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__ocsp__subcmd__request)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__ocsp__subcmd__respond)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__ocsp__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__ocsp__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__parse)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__help__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue)
            opts="-h --color --help ca csr cert batch renew policy list export help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__batch)
            opts="-f -h --ca --db --db-passin --passin --pin --lint --count --from --subject-template --san-template --alg --profile --days --clip-validity --out-dir --force --now --chunk --measure-limit --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lint)
                    COMPREPLY=($(compgen -W "enforce warn off" -- "${cur}"))
                    return 0
                    ;;
                --count)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subject-template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --san-template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --alg)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -W "server client server-client code-signing ocsp-signer ca" -- "${cur}"))
                    return 0
                    ;;
                --days)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --chunk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "jsonl json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "jsonl json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__ca)
            opts="-f -h --dir --subject --alg --key --passin --pin --db --db-passin --days --clip-validity --parent --parent-passin --parent-pin --path-len --permit --exclude --allow --deny --ocsp-url --crl-url --issuer-url --passout --no-passout --now --lint-rules --crl-shards --lint --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subject)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --alg)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --days)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --parent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --parent-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --parent-pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path-len)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --permit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exclude)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ocsp-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crl-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --issuer-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lint-rules)
                    COMPREPLY=($(compgen -W "rfc5280 cabf-tls-core cabf-tls cabf-smime none" -- "${cur}"))
                    return 0
                    ;;
                --crl-shards)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lint)
                    COMPREPLY=($(compgen -W "enforce warn off" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__cert)
            opts="-o -f -h --ca --db --db-passin --passin --pin --lint --csr --subject --key-out --alg --san --profile --template --days --not-after --not-before --clip-validity --ocsp-url --crl-url --issuer-url --copy-extensions --now --out --force --bundle --p12-out --p12-passout --p12-legacy --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lint)
                    COMPREPLY=($(compgen -W "enforce warn off" -- "${cur}"))
                    return 0
                    ;;
                --csr)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subject)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --alg)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --san)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -W "server client server-client code-signing ocsp-signer ca" -- "${cur}"))
                    return 0
                    ;;
                --template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --days)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --not-after)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --not-before)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ocsp-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crl-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --issuer-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --copy-extensions)
                    COMPREPLY=($(compgen -W "none copy" -- "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --p12-out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --p12-passout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__csr)
            opts="-o -h --key --passin --pin --subject --san --out --force --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subject)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --san)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__export)
            opts="-o -h --ca --db --db-passin --out --force --undelivered --out-dir --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__help)
            opts="ca csr cert batch renew policy list export help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__help__subcmd__batch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__help__subcmd__ca)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__help__subcmd__cert)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__help__subcmd__csr)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__help__subcmd__export)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__help__subcmd__policy)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__help__subcmd__renew)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__list)
            opts="-f -h --ca --db --db-passin --format --undelivered --expiring --status --now --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json jsonl" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json jsonl" -- "${cur}"))
                    return 0
                    ;;
                --expiring)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --status)
                    COMPREPLY=($(compgen -W "valid revoked expired" -- "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__policy)
            opts="-f -h --ca --allow --deny --remove --clear --check --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --remove)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --check)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__issue__subcmd__renew)
            opts="-q -o -f -h --ca --db --db-passin --passin --pin --lint --cert --key --key-passin --key-out --alg --within --quiet --exec --days --not-after --not-before --clip-validity --now --out --force --bundle --p12-out --p12-passout --p12-legacy --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lint)
                    COMPREPLY=($(compgen -W "enforce warn off" -- "${cur}"))
                    return 0
                    ;;
                --cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --alg)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --within)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --exec)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --days)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --not-after)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --not-before)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --p12-out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --p12-passout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__key)
            opts="-h --color --help gen pub p12 help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__key__subcmd__gen)
            opts="-a -o -f -h --alg --out --pin --passout --kdf --mldsa-key-format --outform --force --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --alg)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                -a)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kdf)
                    COMPREPLY=($(compgen -W "pbkdf2 scrypt" -- "${cur}"))
                    return 0
                    ;;
                --mldsa-key-format)
                    COMPREPLY=($(compgen -W "seed expanded both" -- "${cur}"))
                    return 0
                    ;;
                --outform)
                    COMPREPLY=($(compgen -W "pem der" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__key__subcmd__help)
            opts="gen pub p12 help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__key__subcmd__help__subcmd__gen)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__key__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__key__subcmd__help__subcmd__p12)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__key__subcmd__help__subcmd__pub)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__key__subcmd__p12)
            opts="-o -h --cert --key --passin --chain --passout --name --legacy --out --force --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --chain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__key__subcmd__pub)
            opts="-o -h --passin --pin --out --outform --force --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --outform)
                    COMPREPLY=($(compgen -W "pem der" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__lint)
            opts="-r -f -h --recursive --rules --as --at --fail-on --format --list --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --rules)
                    COMPREPLY=($(compgen -W "rfc5280 cabf-tls-core cabf-tls cabf-smime none" -- "${cur}"))
                    return 0
                    ;;
                --as)
                    COMPREPLY=($(compgen -W "root intermediate cross-ca tls-leaf smime-leaf ocsp-signer leaf" -- "${cur}"))
                    return 0
                    ;;
                --at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fail-on)
                    COMPREPLY=($(compgen -W "error warning notice" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json jsonl summary" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json jsonl summary" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc)
            opts="-h --color --help ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__add)
            opts="-f -h --dir --db --db-passin --csr --subject --san --key-out --alg --days --from --force --now --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --csr)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subject)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --san)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key-out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --alg)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --days)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__audit)
            opts="-f -h --url --ca --cosigner --witness-policy --state --entries --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cosigner)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --witness-policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__ca)
            opts="-h --color --help new help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__ca__subcmd__help)
            opts="new help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__ca__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__ca__subcmd__help__subcmd__new)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__ca__subcmd__new)
            opts="-f -h --dir --db --db-passin --ca-id --alg --key --passin --pin --passout --log --days --now --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --alg)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ed25519 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --days)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__cert)
            opts="-o -h --dir --db --db-passin --index --count --landmark --stored --out --force --now --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --index)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --count)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__checkpoint)
            opts="-o -f -h --dir --db --db-passin --now --passin --pin --cosignature --subtree-cosignature --cosigner --witness --witness-quorum --witness-timeout --to --s3-endpoint --s3-region --s3-jobs --out --force --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cosignature)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subtree-cosignature)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cosigner)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --witness)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --witness-quorum)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --witness-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-endpoint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-region)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__consistency)
            opts="-f -h --dir --db --db-passin --old --new --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --old)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --new)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__cosign)
            opts="-o -f -h --url --ca --key --passin --pin --id --state --out --subtrees --force --now --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --state)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subtrees)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help)
            opts="ca add checkpoint cert landmark proof consistency verify size tiles serve audit cosign witness help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__audit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__ca)
            opts="new"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__ca__subcmd__new)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__cert)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__checkpoint)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__consistency)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__cosign)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__landmark)
            opts="allocate list"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__landmark__subcmd__allocate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__landmark__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__proof)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__size)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__tiles)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__witness)
            opts="serve"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__help__subcmd__witness__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__landmark)
            opts="-h --dir --db --db-passin --color --help allocate list help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__landmark__subcmd__allocate)
            opts="-f -h --lifetime --now --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --lifetime)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__landmark__subcmd__help)
            opts="allocate list help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__landmark__subcmd__help__subcmd__allocate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__landmark__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__landmark__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__landmark__subcmd__list)
            opts="-f -h --subtrees --now --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__proof)
            opts="-f -h --dir --db --db-passin --index --subtree --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --index)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subtree)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__serve)
            opts="-h --dir --db --db-passin --prefix --listen --threads --max-connections --header-timeout --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --header-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__size)
            opts="-f -h --alg --proof-hashes --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --alg)
                    COMPREPLY=($(compgen -W "ecdsa-p256 ecdsa-p384 ed25519 rsa2048 rsa3072 rsa4096 ml-dsa-44 ml-dsa-65 ml-dsa-87" -- "${cur}"))
                    return 0
                    ;;
                --proof-hashes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__tiles)
            opts="-f -h --dir --db --db-passin --out-dir --to --s3-endpoint --s3-region --s3-jobs --no-entries --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-endpoint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-region)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --s3-jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__verify)
            opts="-f -h --ca --cosigner --trusted-subtrees --url --witness-policy --now --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cosigner)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trusted-subtrees)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --witness-policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__witness)
            opts="-h --color --help serve help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__witness__subcmd__help)
            opts="serve help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__witness__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__witness__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__mtc__subcmd__witness__subcmd__serve)
            opts="-h --key --passin --pin --id --log --db --db-passin --prefix --listen --threads --max-connections --header-timeout --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --header-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp)
            opts="-h --color --help request respond verify serve help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp__subcmd__help)
            opts="request respond verify serve help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp__subcmd__help__subcmd__request)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp__subcmd__help__subcmd__respond)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp__subcmd__help__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp__subcmd__request)
            opts="-o -f -h --cert --issuer --hash --nonce --url --out --force --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --issuer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --hash)
                    COMPREPLY=($(compgen -W "sha1 sha256" -- "${cur}"))
                    return 0
                    ;;
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp__subcmd__respond)
            opts="-o -f -h --ca --db --db-passin --responder-cert --responder-key --passin --pin --next-update --lint --request --now --out --force --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --responder-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --responder-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --next-update)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lint)
                    COMPREPLY=($(compgen -W "enforce warn off" -- "${cur}"))
                    return 0
                    ;;
                --request)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp__subcmd__serve)
            opts="-h --ca --db --db-passin --responder-cert --responder-key --passin --pin --next-update --lint --listen --threads --max-connections --header-timeout --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --responder-cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --responder-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --next-update)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lint)
                    COMPREPLY=($(compgen -W "enforce warn off" -- "${cur}"))
                    return 0
                    ;;
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --header-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__ocsp__subcmd__verify)
            opts="-f -h --issuer --cert --request --now --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --issuer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --request)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__parse)
            opts="-r -f -o -h --connect --recursive --format --inform --type --summary --passin --show-private --lenient --now --out --force --split --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --connect)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json jsonl pem der asn1 table" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json jsonl pem der asn1 table" -- "${cur}"))
                    return 0
                    ;;
                --inform)
                    COMPREPLY=($(compgen -W "auto pem der base64" -- "${cur}"))
                    return 0
                    ;;
                --type)
                    COMPREPLY=($(compgen -W "cert csr crl ocsp-request ocsp-response pkcs7 pkcs12 spki pkcs8 checkpoint asn1" -- "${cur}"))
                    return 0
                    ;;
                --passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pkit__subcmd__verify)
            opts="-r -f -v -h --connect --recursive --roots --untrusted --now --max-depth --purpose --hostname --ip --email --policy --require-explicit-policy --inhibit-policy-mapping --inhibit-any-policy --rules --crl --ca --db --db-passin --ocsp-response --ocsp --crl-download --offline --check-revocation --revocation-policy --expires-within --format --verbose --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --connect)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --roots)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --untrusted)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --now)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --purpose)
                    COMPREPLY=($(compgen -W "any server client code-signing email ocsp-signer timestamping" -- "${cur}"))
                    return 0
                    ;;
                --hostname)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ip)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rules)
                    COMPREPLY=($(compgen -W "rfc5280 webpki" -- "${cur}"))
                    return 0
                    ;;
                --crl)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --db-passin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ocsp-response)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --check-revocation)
                    COMPREPLY=($(compgen -W "none leaf chain" -- "${cur}"))
                    return 0
                    ;;
                --revocation-policy)
                    COMPREPLY=($(compgen -W "soft-fail hard-fail" -- "${cur}"))
                    return 0
                    ;;
                --expires-within)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json jsonl" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json jsonl" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _pkit -o nosort -o bashdefault -o default pkit
else
    complete -F _pkit -o bashdefault -o default pkit
fi
