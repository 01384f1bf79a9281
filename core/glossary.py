"""A small Spanish-English glossary of workplace words: which words of the other language say the same.

The bundled multilingual model cannot tell a translation from a neighbour word by word ("regalo"/"gift"
0.94, "regalo"/"refund" 0.88, "aporta"/"ofrecer" 0.94), so the tutor's answer check (issue 29) pairs a
question's terms with a document's words here. Each line is one meaning: its words in both languages
(folded: lower case, no accents), compared by their first ``STEM`` letters as ``core.text.stems`` does.
Written by hand for the vocabulary of company policies (people, leave, pay, travel, expenses, stores,
customers, warehouses, security, conduct), not from any question of an eval.
"""

from __future__ import annotations

import functools

from core.text import content_words, fold

STEM = 5

_MEANINGS = """
holiday holidays vacation vacations vacaciones vacacional
leave leaves permiso permisos licencia licencias ausencia
annual anual yearly year years ano anos
day days dia dias daily diario diaria diarios diarias jornada
week weeks weekly semana semanas semanal
month months monthly mes meses mensual
hour hours hourly hora horas
minute minutes minuto minutos
second seconds segundo segundos
time tiempo plazo period periodo deadline
today hoy
tomorrow manana
night nights noche noches nocturno nocturna nocturnidad overnight pernoctar
morning mananas
first primer primera primero primeros
last ultimo ultima
start starts starting begin begins beginning empieza empezar comienza comienzo inicio
end ends fin final termina finalizar
late delay delayed retrasa retraso retrasado tarde
early temprano antes
advance antelacion anticipacion anticipo
before antes
after despues tras
within dentro
sick enfermedad enfermo enferma baja
illness enfermedad
bereavement duelo fallecimiento
death muerte fallecimiento
child children hijo hijos hija hijas
parent parents parental padre madre padres
family familia familiar
spouse conyuge pareja esposa esposo
military militar militares
veteran veterans veterano veteranos
disabled disability discapacidad discapacitado
jury jurado
court tribunal juzgado
vote voting votar voto
blood sangre
donation donate donar donacion
vaccine vaccination vacuna vacunacion
relocation relocate traslado mudanza
accrue accrues accrual acumula acumulo acumular
carry arrastrar
service servicio
employee employees empleado empleados trabajador trabajadores plantilla
staff personal
worker workers trabajador
manager managers responsable jefe gerente supervisor
boss jefe
team equipo
department departamento
company empresa compania
office oficina oficinas
head sede central
store stores shop shops tienda tiendas
customer customers client clients cliente clientes
supplier suppliers proveedor proveedores
warehouse warehouses almacen almacenes
distribution distribucion
salary salario sueldo nomina payroll
pay paid pays paying paga pagar pagado pago
payment pago abono
bonus plus prima
price precio
fee fees rate rates tarifa tarifas
cost costs coste costes
amount importe cantidad
maximum max maximo maxima tope
minimum min minimo minima
limit limits limite limites
expense expenses gasto gastos
receipt receipts ticket tickets recibo recibos justificante factura
invoice factura
refund refunds refundable nonrefundable reembolso reembolsos devolucion reembolsar
reimburse reimbursed reimbursement reimbursable reembolsa reembolsan reembolsable reembolsables reembolso
return returns returned returning devolucion devoluciones devolver devuelto devueltos devuelta devueltas
exchange exchanges cambio cambios cambiar
gift gifts regalo regalos
voucher vouchers vale vales
credit credito
cash efectivo
card tarjeta
valid validity valido valida validez
proof prueba justificante
purchase purchases compra compras comprar
sale sales venta ventas
product products producto productos articulo articulos
item items articulo articulos
order orders pedido pedidos
online linea
delivery entrega envio
faulty defective defectuoso defectuosa averiado
damage damaged dano danos danado
repair repaired reparar repara reparacion
replace replaced sustituir reemplazar
hygiene hygienic higiene higienico higienica
seal precinto sello
swimwear swimsuit banador banadores
underwear ropa interior
earrings pendientes
electronics electronica electronicos
complaint complaints file submit presentar reclamacion reclamaciones queja quejas
answer answers respond respuesta responde responder
phone telephone call calls caller callers telefono llamada llamadas
hold espera
greet greeting saludar saludo
wait waiting esperar espera
travel travelling traveling trip trips viaje viajes viajar
abroad foreign international extranjero internacional
flight flights vuelo vuelos
airfare airline billete billetes avion
ticket ticketed billete emitido emite emision
hotel hotels hotel alojamiento lodging
meal meals comida comidas almuerzo cena
breakfast desayuno
allowance allowances dieta dietas viatico
car cars coche coches vehiculo vehiculos auto
vehicle vehiculo
kilometre kilometres kilometer kilometers kilometro kilometros
mileage kilometraje
taxi taxi
train tren
fine fines multa multas
traffic trafico
parking aparcamiento
fuel gasolina combustible
rental alquiler
booking book reserve reserva reservar reservo
approval approve approved aprobacion aprobar aprobado aprobaron autorizacion
authorise authorize authorised authorized autorizar autorizado
request requested requests solicitud solicitar pedir pide
form formulario
training formacion curso cursos capacitacion
mandatory compulsory obligatorio obligatoria obligatorios obligatorias exige exigido
required requirement requires requerido necesario exige
optional opcional
course courses curso cursos
safety seguridad
security seguridad
health salud
footwear shoes boots calzado zapatos botas
category categoria clase
helmet casco
equipment equipo equipos epi epis
step steps paso pasos
vest chaleco
gloves guantes
forklift forklifts carretilla carretillas
fork forks horquilla horquillas
height altura
driving drive driver drivers conducir conduccion conductor conductores circular
speed velocidad
load loads carga cargas
rack racks racking shelving shelf estanteria estanterias
amber ambar
red rojo roja
green verde
assembly reunion concentracion
point punto
emergency emergencia
fire incendio fuego
evacuation evacuacion
accident accidente
injury lesion herida
first-aid botiquin
temperature temperatura
break breaks pausa pausas descanso
alcohol alcohol
drugs drogas
medication medicamento medicamentos medicacion
password passwords contrasena contrasenas clave
length longitud largo
character characters caracter caracteres
laptop laptops portatil portatiles ordenador
computer ordenador
device devices dispositivo dispositivos
lost lose loss perdida perder perdido extravio
stolen theft robo robado
report reported reporting reportar informar comunicar notificar denunciar
incident incidents incidente incidentes
memory memoria
stick pendrive
usb usb
email correo
phishing phishing
data datos
personal personales
recording recordings grabacion grabaciones
camera cameras cctv camara camaras videovigilancia
kept keep retention guardan conservan conservar conservacion
delete deleted borrar eliminar
access acceso
update updates actualizacion actualizaciones
code codigo
conduct conducta
behaviour behavior comportamiento conducta
warning advertencia aviso
ban expulsion prohibicion
temporary temporal
permanent permanente
community comunidad
administrators admins administradores
respect respetar respeto
privacy privacidad
security seguridad
harassment acoso
consequence consequences consecuencia consecuencias
enforcement aplicacion
violation violations infraccion infracciones incumplir incumplimiento
allowed permitted permitido permitida permite
prohibited forbidden prohibido prohibida
welcome bienvenida
onboarding incorporacion acogida
buddy mentor padrino
reception recepcion
portal portal
contract contrato
probation prueba
resignation dimision baja
notice preaviso aviso
promotion ascenso promocion
job trabajo puesto empleo
work working trabajar trabajo
remote remotely teletrabajo teletrabajar distancia
home casa domicilio
insurance seguro seguros
medical medico medica sanitario
pension pensiones jubilacion
discount discounts descuento descuentos
benefit benefits beneficio beneficios ventaja
owner propietario responsable
who quien
where donde
how como
why porque
cheap barato
economy turista
class clase
business negocios
client cliente
guest guests invitado invitados
visitor visitors visitante visitantes
meeting meetings reunion reuniones
room rooms sala salas habitacion
transport transportation transporte trasladar
any anyone cualquier cualquiera
direct directly directo directa directamente
area zone zona
policy policies politica politicas
attention atencion
manual handbook guide guides manual manuales guia guias
shift shifts turno turnos
prevention prevent prevencion prevenir
page pages pagina paginas
explain explanation explicar explicacion
risk risks riesgo riesgos
publish published publicar publico publica public
withdraw remove removed retirar retirada quitar quitado quita
rule rules norma normas regla reglas standard
place placed colocar coloca
solution solve solucion solucionar resolver resuelve resolution
unless except salvo excepto exception excepcion
general general generally
inspect inspection inspeccion inspeccionar check checked checks revisar revisa revision review reviewed
protect protection proteger proteccion protective
include includes included incluye incluir incluido
aisle aisles pasillo pasillos
dock docks muelle muelles
operation operations operate operaciones operacion operar
level levels nivel niveles
finance financial finanzas financiero financiera
version versions version
experience experiencia
name names nombre nombres
immediately immediate inmediatamente inmediato inmediata
comply compliance cumplir cumplimiento
label labels etiqueta etiquetas
truck trucks lorry camion camiones
raise raised lift lifted lifting elevar eleva elevado levantar levanta
note notes nota notas
question questions pregunta preguntas
register registered record registro registrar
reason reasons motivo motivos razon razones
help ayuda ayudar assist assistance asistencia
process procedure proceso procedimiento
example examples ejemplo ejemplos
case cases caso casos
clean cleaning limpiar limpieza
machine machinery maquina maquinaria
keep maintain mantener mantiene
follow following seguir siguiente
tool tools herramienta herramientas
object objects objeto objetos
chemical chemicals quimico quimicos quimica
task tasks tarea tareas
sign signs signal senal senales
block blocked bloquear bloqueado bloqueada
pedestrian pedestrians peaton peatones
stop stopped detener parar detenido
key keys llave llaves
serious grave graves
send sent enviar envia envio
consult consultar consulta
system systems sistema sistemas
use used usar utilizar utiliza uso
identify identity identificar identidad
accompany acompanar acompana
colour color colores
handle handling manipular manipulacion
space espacio
floor suelo
battery batteries bateria baterias
alarm alarms alarma alarmas
cause causes causa causas
spill spills derrame derrames
sexual sexual
write written escrito escrita escribir escritas
module modulo
heavy pesado pesada
lack missing falta
charge charges cargo cargos
content contenido
method metodo
listen escuchar escucha
alternative alternativa
possible posible
discuss discussion discutir discusion
number numero
insult insults insulto insultos
new nuevo nueva
search buscar busca
translate translation traducir traduccion
contact contacto contactar
comment comments comentario comentarios
learn aprender
external externo externa
danger dangerous peligro peligroso
mechanic mechanical mecanico
brake brakes freno frenos
ramp ramps rampa rampas
switch apagar
frequent frequently frecuente frecuencia
back espalda
exit salida salidas
accept accepted aceptar aceptado acepta
unacceptable inaceptable
project proyecto
main principal
horn claxon bocina
plate placa
pallet pallets palet palets
show shows mostrar muestra
doubt doubts duda dudas
sanction sanctions sancion sanciones
promise promesa prometer
kindness amabilidad
enter entrar entra entrada
section seccion
tone tono
open opened abierto abrir
confirm confirmation confirmar confirmacion
satisfaction satisfaccion
calm tranquilo calma
empathy empatia
blame culpa
phrase phrases frase frases
avoid evitar evita
error errors mistake error errores
manage management gestion gestionar
aggressive agresivo agresiva
threat threats amenaza amenazas
none ninguno ninguna
education educacion
guarantee garantia garantizar
situation situacion
agree agreed agreement acordar acuerdo
speak talk hablar habla
repeat repetir
choose elegir
appear aparecer
indicate indicar indica
environment entorno
install installed instalar
evaluate evaluation evaluar evaluacion
material materials material materiales
care cuidar cuidado
visible visible visibilidad
yellow amarillo
orange naranja
short corto corta
audit auditoria
separate separar
path camino
list lista
wheel wheels rueda ruedas
chain chains cadena cadenas
liquid liquido
hydraulic hidraulico
seat seated sentado asiento
belt cinturon
station estacion
lower bajar bajada
platform plataforma
weight peso
foot feet pies
knee knees rodilla rodillas
need needed necesitar necesario
change changes changed cambio cambios cambiar
amend amendment modificar modificacion
click clic
government gobierno
document documents documento documentos
account cuenta
location locations ubicacion lugar
select seleccionar
itinerary itinerario
add additional anadir adicional
create crear
detail details detalle detalles
next siguiente
airport aeropuerto
specific especifico
claim reclamar
event events evento eventos
local local
budget presupuesto
between entre
provide provided proporcionar facilitar
available disponible
related relacionado
duty deber servicio
origin original origen
balance saldo
button boton
ensure asegurar garantizar
status estado
date dates fecha fechas
issue issued emitir emitido
colleague colleagues companero companeros
vendor proveedor
city ciudad
outside fuera
federal federal
extend extension ampliar prorroga
bank banco
member members miembro miembros
weather tiempo clima
address direccion
screen pantalla
view ver vista
role rol
result results resultado resultados
program programa
estimate estimar estimacion
obtain obtener
schedule horario calendario
count contar
action actions accion acciones
read leer
instruction instructions instruccion instrucciones
message mensaje
badge credencial acreditacion
funeral funeral
regulation regulations reglamento normativa
state estado
exceed exceeds superar supera
conference conferencia congreso
side lado
recover recuperar
plan plans plan planes
save guardar ahorrar
certify certificate certificar certificado
current actual
large grande
purpose proposito finalidad objetivo
found encontrar
spent gastado gastar
condition conditions condicion condiciones
connect conexion conectar
recent reciente
calculate calcular
increase aumentar incremento
temperature temperatura
summer verano
winter invierno
water agua
reinforce reforzar refuerzan
people persona personas
annual vacaciones
"""


@functools.cache
def _by_stem() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for line in _MEANINGS.strip().splitlines():
        stems = {fold(word)[:STEM] for word in line.split()}
        for stem in stems:
            out.setdefault(stem, set()).update(stems)
    return {stem: frozenset(same) for stem, same in out.items()}


def equivalents(word: str) -> frozenset[str]:
    """The stems that say what ``word`` says, in either language (its own stem included)."""
    stem = fold(word)[:STEM]
    return _by_stem().get(stem, frozenset()) | {stem}


def knows(word: str) -> bool:
    """Whether the glossary has ``word`` (by its stem)."""
    return fold(word)[:STEM] in _by_stem()


@functools.cache
def _words_by_stem() -> dict[str, tuple[str, ...]]:
    out: dict[str, dict[str, None]] = {}
    for line in _MEANINGS.strip().splitlines():
        words = [fold(word) for word in line.split()]
        for word in words:
            out.setdefault(word[:STEM], {}).update(dict.fromkeys(w for w in words if w[:STEM] != word[:STEM]))
    return {stem: tuple(words) for stem, words in out.items()}


def other_words(word: str) -> tuple[str, ...]:
    """The glossary's other words for ``word`` (its translations and synonyms), in the glossary's order."""
    return _words_by_stem().get(fold(word)[:STEM], ())


def gloss(text: str, per_word: int = 2) -> str:
    """``text`` said with the glossary's words for each of its content words (up to ``per_word`` each; a
    word it doesn't know stays as it is): the question put in the other language for retrieval."""
    out: dict[str, None] = {}
    for word in content_words(text):
        out.update(dict.fromkeys(other_words(word)[:per_word] or (word,)))
    return " ".join(out)
